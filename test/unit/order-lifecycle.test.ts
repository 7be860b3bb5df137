import { describe, expect, it } from 'vitest';
import { InvalidOrderTransition, ValidationFailed } from '../../functions/domain/errors';
import { ORDER_STATUSES, type Order, type OrderStatus } from '../../functions/domain/orders/order';
import { allowedActions, applyTransition, ORDER_TRANSITIONS } from '../../functions/domain/orders/order-lifecycle';
import { parseOrderSearch } from '../../functions/domain/orders/order-search';
import {
  ORDER_ACTIONS,
  type OrderAction,
  parseTransition,
  withSandboxDefaults,
} from '../../functions/domain/orders/transition-input';
import { anOrderingWorld } from '../support/order-fixtures';

const INPUTS: Record<OrderAction, unknown> = {
  confirm: {},
  ship: {
    tracking_number: '1Z999AA10123456784',
    carrier: 'UPS',
    tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    estimated_delivery: '2036-11-25T17:00:00.000Z',
  },
  deliver: { signature: 'R. Front-Desk' },
  cancel: { reason: 'Ordered twice' },
  refund: {},
};

/** The actions that lead from a new order to each status. */
const PATH_TO: Record<OrderStatus, OrderAction[]> = {
  pending: [],
  confirmed: ['confirm'],
  shipped: ['confirm', 'ship'],
  delivered: ['confirm', 'ship', 'deliver'],
  cancelled: ['cancel'],
  refunded: ['confirm', 'ship', 'deliver', 'refund'],
};

const VALID: ReadonlySet<string> = new Set([
  'pending→confirm',
  'confirmed→ship',
  'shipped→deliver',
  'pending→cancel',
  'confirmed→cancel',
  'delivered→refund',
]);

async function aPendingOrder(): Promise<Order> {
  const world = await anOrderingWorld();
  await world.cartService.add(world.profile.id, 'GLV-NIT-M-100', 2);
  return world.orderService.placeOrder(world);
}

let at = Date.parse('2036-11-22T12:00:00.000Z');
const later = () => new Date((at += 60_000));

function orderIn(status: OrderStatus, pending: Order): Order {
  return PATH_TO[status].reduce(
    (order, action) => applyTransition(order, parseTransition(action, INPUTS[action]), later()).order,
    pending,
  );
}

describe('order lifecycle', () => {
  const cases = ORDER_STATUSES.flatMap((status) => ORDER_ACTIONS.map((action) => [status, action] as const));

  it.each(cases)('%s → %s is allowed exactly when the lifecycle says so', async (status, action) => {
    const order = orderIn(status, await aPendingOrder());
    const transition = parseTransition(action, INPUTS[action]);
    if (VALID.has(`${status}→${action}`)) {
      const { order: next, change } = applyTransition(order, transition, later());
      expect(next.status).toBe(ORDER_TRANSITIONS[action].to);
      expect(next.sequence).toBe(order.sequence + 1);
      expect(next.statusHistory).toEqual([...order.statusHistory, change]);
      expect(change).toMatchObject({ status: next.status, sequence: next.sequence, at: next.updatedAt });
    } else {
      const attempt = () => applyTransition(order, transition, later());
      expect(attempt).toThrow(InvalidOrderTransition);
      expect(attempt).toThrow(`is ${status}; it cannot become ${ORDER_TRANSITIONS[action].to}`);
    }
  });

  it('lists the actions each status allows', () => {
    expect(allowedActions('pending')).toEqual(['confirm', 'cancel']);
    expect(allowedActions('confirmed')).toEqual(['ship', 'cancel']);
    expect(allowedActions('shipped')).toEqual(['deliver']);
    expect(allowedActions('delivered')).toEqual(['refund']);
    expect(allowedActions('cancelled')).toEqual([]);
    expect(allowedActions('refunded')).toEqual([]);
  });

  it('keeps what each change carried, and a history with one entry per change', async () => {
    const refunded = orderIn('refunded', await aPendingOrder());
    expect(refunded.sequence).toBe(5);
    expect(refunded.statusHistory.map((change) => [change.status, change.sequence])).toEqual([
      ['pending', 1],
      ['confirmed', 2],
      ['shipped', 3],
      ['delivered', 4],
      ['refunded', 5],
    ]);
    expect(refunded.shipment).toMatchObject({
      trackingNumber: '1Z999AA10123456784',
      carrier: 'UPS',
      estimatedDelivery: '2036-11-25T17:00:00.000Z',
    });
    expect(refunded.delivery?.signature).toBe('R. Front-Desk');
    expect(refunded.refund).toEqual({ refundedAt: refunded.updatedAt, amountCents: refunded.totalCents });

    const cancelled = orderIn('cancelled', await aPendingOrder());
    expect(cancelled.cancellation).toEqual({ cancelledAt: cancelled.updatedAt, reason: 'Ordered twice' });
  });

  it('refunds the whole total by default, a part when asked, and never more than the total', async () => {
    const delivered = orderIn('delivered', await aPendingOrder());
    const partial = applyTransition(
      delivered,
      parseTransition('refund', { amount: 5.1, reason: 'One box damaged' }),
      later(),
    );
    expect(partial.order.refund).toMatchObject({ amountCents: 510, reason: 'One box damaged' });

    const whole = delivered.totalCents / 100;
    expect(
      applyTransition(delivered, parseTransition('refund', { amount: whole }), later()).order.refund?.amountCents,
    ).toBe(delivered.totalCents);
    const tooMuch = () =>
      applyTransition(delivered, parseTransition('refund', { amount: (delivered.totalCents + 1) / 100 }), later());
    expect(tooMuch).toThrow(ValidationFailed);
    try {
      tooMuch();
    } catch (error) {
      expect((error as ValidationFailed).issues).toMatchObject([{ code: 'TOO_BIG', path: ['amount'] }]);
    }
  });

  it('does not change the order it was given', async () => {
    const pending = await aPendingOrder();
    const before = structuredClone(pending);
    applyTransition(pending, parseTransition('confirm', {}), later());
    expect(pending).toEqual(before);
  });
});

describe('order change inputs', () => {
  const problems = (action: string, input: unknown) => {
    try {
      parseTransition(action, input);
    } catch (error) {
      if (error instanceof ValidationFailed) return error.issues.map(({ code, path }) => ({ code, path }));
      throw error;
    }
    return [];
  };
  const ship = INPUTS.ship as Record<string, unknown>;

  it('accepts the documented inputs, and no body where none is needed', () => {
    for (const action of ORDER_ACTIONS) expect(problems(action, INPUTS[action])).toEqual([]);
    expect(problems('confirm', undefined)).toEqual([]);
    expect(problems('cancel', undefined)).toEqual([]);
    expect(parseTransition('cancel', { reason: '   ' }).input).toEqual({});
  });

  it('requires every shipping field, an https tracking URL and an ISO 8601 estimated delivery', () => {
    expect(problems('ship', {})).toEqual([
      { code: 'REQUIRED', path: ['tracking_number'] },
      { code: 'REQUIRED', path: ['carrier'] },
      { code: 'REQUIRED', path: ['tracking_url'] },
      { code: 'REQUIRED', path: ['estimated_delivery'] },
    ]);
    expect(problems('ship', { ...ship, tracking_url: 'http://www.ups.com/track' })).toEqual([
      { code: 'INVALID_FORMAT', path: ['tracking_url'] },
    ]);
    expect(problems('ship', { ...ship, tracking_url: 'javascript:alert(1)' })).toEqual([
      { code: 'INVALID_FORMAT', path: ['tracking_url'] },
    ]);
    expect(problems('ship', { ...ship, estimated_delivery: 'next Tuesday' })).toEqual([
      { code: 'INVALID_FORMAT', path: ['estimated_delivery'] },
    ]);
    expect(problems('ship', { ...ship, carrier: 'C'.repeat(65) })).toEqual([{ code: 'TOO_LONG', path: ['carrier'] }]);
    expect(problems('ship', { ...ship, tracking_number: 'N'.repeat(65) })).toEqual([
      { code: 'TOO_LONG', path: ['tracking_number'] },
    ]);
  });

  it('requires who signed for a delivery', () => {
    expect(problems('deliver', {})).toEqual([{ code: 'REQUIRED', path: ['signature'] }]);
    expect(problems('deliver', { signature: ' ' })).toEqual([{ code: 'REQUIRED', path: ['signature'] }]);
  });

  it('takes a refund amount in dollars with at most two decimals, above zero', () => {
    expect(parseTransition('refund', { amount: 19.99 }).input).toEqual({ amount: 1999 });
    expect(problems('refund', { amount: 1.005 })).toEqual([{ code: 'INVALID_AMOUNT', path: ['amount'] }]);
    expect(problems('refund', { amount: 0 })).toEqual([{ code: 'TOO_SMALL', path: ['amount'] }]);
    expect(problems('refund', { amount: '5' })).toEqual([{ code: 'INVALID_TYPE', path: ['amount'] }]);
  });

  it('counts calendar days across month and year ends: the sandbox ship default and the search’s last day', () => {
    const shipped = withSandboxDefaults(
      'ship',
      {},
      '0f4c2a9e-1b2d-4c3e-8f5a-6b7c8d9e0f1a',
      new Date('2036-12-30T23:30:00Z'),
    );
    expect(shipped).toMatchObject({ estimated_delivery: '2037-01-02T17:00:00Z' });
    expect(withSandboxDefaults('ship', {}, 'x', new Date('2036-02-27T01:00:00Z'))).toMatchObject({
      estimated_delivery: '2036-03-01T17:00:00Z',
    });
    // To is included: its range ends at the next day's midnight in the organization's zone (CST, UTC-6).
    expect(parseOrderSearch({ from: '2036-12-31', to: '2036-12-31' }, 'America/Chicago')).toEqual({
      createdGte: '2036-12-31T06:00:00.000Z',
      createdLt: '2037-01-01T06:00:00.000Z',
    });
  });

  it('refuses an unknown action', () => {
    expect(problems('teleport', {})).toEqual([{ code: 'INVALID_VALUE', path: ['action'] }]);
  });
});
