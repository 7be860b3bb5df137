/**
 * Placing and advancing an order through the sandbox API under a fault at every step,
 * one at a time: each DynamoDB call the request makes fails before it is applied, loses
 * its answer after it was applied (a crash or timeout right after), or stalls.
 *
 * After each fault the order and its webhooks agree: every stored order is a complete
 * order whose history ends where its status is, the outbox carried exactly one webhook
 * per entry of that history (signed, documented kind), and nothing else was sent. The
 * partner's retry completes: a place retried after a lost answer places a second order
 * (each with its own single order.created: docs/orders-api.md says to check the list
 * before retrying), a change retried after a lost answer answers 409
 * INVALID_ORDER_TRANSITION naming the status it already reached.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../functions/domain/orders/order';
import { orderEventKind } from '../../functions/domain/orders/order-event';
import { ORDER_TRANSITIONS } from '../../functions/domain/orders/order-lifecycle';
import type { OrderAction } from '../../functions/domain/orders/transition-input';
import {
  describeCall,
  type FaultMode,
  FaultPlan,
  injectAwsFaults,
  modesFor,
  type PlannedCall,
} from '../support/fault-plan';
import {
  anItem,
  anOrderingPartner,
  deliverEverything,
  importDriftProducts,
  type OrderingPartner,
  webhooksOf,
} from '../support/order-pipeline';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const plan = new FaultPlan();
let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await importDriftProducts(stack);
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix: stack.config.RESOURCE_PREFIX });
  plan.stallMs = 30;
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const INTERNAL_ERROR = {
  error: 'Internal Server Error',
  message: 'The request failed; retry with exponential backoff',
  code: 'INTERNAL_ERROR',
  details: [],
};
const INPUT: Record<OrderAction, Record<string, unknown>> = {
  confirm: {},
  ship: {
    tracking_number: '1Z9',
    carrier: 'UPS',
    tracking_url: 'https://track.example.com/1Z9',
    estimated_delivery: '2036-01-09T17:00:00Z',
  },
  deliver: { signature: 'R. Front Desk' },
  cancel: { reason: 'duplicate' },
  // The whole total: a retried partial refund refunds again (docs/orders-api.md), so only a full one answers 409 when retried.
  refund: {},
};
const PATH_BEFORE: Record<OrderAction, OrderAction[]> = {
  confirm: [],
  ship: ['confirm'],
  deliver: ['confirm', 'ship'],
  cancel: ['confirm'],
  refund: ['confirm', 'ship', 'deliver'],
};

const place = (partner: OrderingPartner) =>
  stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-1999', 2), anItem('DRIFT-010')] },
    partner.bearer,
  );
const act = (partner: OrderingPartner, orderId: string, action: OrderAction) =>
  stack.post(`/v1/sandbox/orders/${orderId}/${action}`, INPUT[action], partner.bearer);

/** The request under test, with the plan recording (and possibly faulting) its calls only. */
async function faulted(request: () => Promise<TestResponse>, arm: () => void): Promise<TestResponse> {
  plan.reset();
  arm();
  try {
    return await request();
  } finally {
    plan.disarm();
  }
}

const storedOrders = (partner: OrderingPartner): Promise<Order[]> =>
  plan.outside(
    async () => (await stack.deps.orders.listByOrganization(partner.buyer.organization.id, { limit: 100 })).orders,
  );

/** Every stored order of the partner is whole, and the webhooks it got are exactly one per change of each. */
async function expectConsistent(partner: OrderingPartner, label: string): Promise<Order[]> {
  await plan.outside(() => deliverEverything(stack));
  const orders = await storedOrders(partner);
  for (const order of orders) {
    expect(order.sequence, label).toBe(order.statusHistory.length);
    expect(order.statusHistory.at(-1)?.status, label).toBe(order.status);
    const kinds = webhooksOf(receiver, order.id, partner.secret)
      .map((w) => w.event)
      .sort();
    expect(kinds, label).toEqual(order.statusHistory.map((change) => orderEventKind(change.status)).sort());
  }
  return orders;
}

async function sweepPlace(modes: readonly FaultMode[]): Promise<string[]> {
  const baseline = await anOrderingPartner(stack, receiver);
  expect(
    (
      await faulted(
        () => place(baseline),
        () => undefined,
      )
    ).status,
  ).toBe(201);
  const steps: PlannedCall[] = [...plan.calls];
  const outcomes: string[] = [];
  for (const [index, step] of steps.entries()) {
    for (const mode of modesFor(step, modes)) {
      const label = `place, step ${index} ${describeCall(step)} ${mode}`;
      const partner = await anOrderingPartner(stack, receiver);
      const first = await faulted(
        () => place(partner),
        () => plan.atStep(index, mode),
      );
      expect(
        plan.injected.map((i) => describeCall(i.call)),
        label,
      ).toEqual([describeCall(step)]);
      if (mode === 'stall') expect(first.status, label).toBe(201);
      else if (first.status !== 201) expect(first.body, label).toEqual(INTERNAL_ERROR);

      const committed = (await expectConsistent(partner, label)).length;
      expect(committed, label).toBe(first.status === 201 ? 1 : committed);
      expect(committed, label).toBeLessThanOrEqual(1);

      stack.clock.advance(61_000);
      const retried = await place(partner);
      expect(retried.status, `${label}: ${retried.text}`).toBe(201);
      const orders = await expectConsistent(partner, label);
      expect(orders, label).toHaveLength(committed + 1);
      expect(
        orders.every((order) => order.status === 'pending' && order.totalCents === orders[0]!.totalCents),
        label,
      ).toBe(true);
      outcomes.push(`${index}:${mode}→${first.status}/${retried.status}`);
    }
  }
  console.log(
    `[faults] place order: ${steps.length} steps [${steps.map(describeCall).join(' → ')}] outcomes ${outcomes.join(' ')}`,
  );
  return steps.map(describeCall);
}

async function preparedOrder(action: OrderAction): Promise<{ partner: OrderingPartner; orderId: string }> {
  const partner = await anOrderingPartner(stack, receiver);
  const orderId = (await place(partner)).body.order.id as string;
  for (const before of PATH_BEFORE[action]) expect((await act(partner, orderId, before)).status).toBe(200);
  return { partner, orderId };
}

async function sweepChange(action: OrderAction, modes: readonly FaultMode[]): Promise<string[]> {
  const to = ORDER_TRANSITIONS[action].to;
  const baseline = await preparedOrder(action);
  expect(
    (
      await faulted(
        () => act(baseline.partner, baseline.orderId, action),
        () => undefined,
      )
    ).status,
  ).toBe(200);
  const steps: PlannedCall[] = [...plan.calls];
  const outcomes: string[] = [];
  for (const [index, step] of steps.entries()) {
    for (const mode of modesFor(step, modes)) {
      const label = `${action}, step ${index} ${describeCall(step)} ${mode}`;
      const { partner, orderId } = await preparedOrder(action);
      const from = (await storedOrders(partner))[0]!.status;
      const first = await faulted(
        () => act(partner, orderId, action),
        () => plan.atStep(index, mode),
      );
      expect(
        plan.injected.map((i) => describeCall(i.call)),
        label,
      ).toEqual([describeCall(step)]);
      if (mode === 'stall') expect(first.status, label).toBe(200);
      else if (first.status !== 200) expect(first.body, label).toEqual(INTERNAL_ERROR);

      const [afterFault] = await expectConsistent(partner, label);
      const committed = afterFault!.status === to;
      expect(afterFault!.status, label).toBe(first.status === 200 || committed ? to : from);

      stack.clock.advance(61_000);
      const retried = await act(partner, orderId, action);
      if (committed) {
        expect(retried.status, label).toBe(409);
        expect(retried.body, label).toMatchObject({
          code: 'INVALID_ORDER_TRANSITION',
          data: { order_id: orderId, status: to, requested_status: to },
        });
      } else {
        expect(retried.status, `${label}: ${retried.text}`).toBe(200);
      }
      const [final] = await expectConsistent(partner, label);
      expect(final!.status, label).toBe(to);
      outcomes.push(`${index}:${mode}→${first.status}/${retried.status}`);
    }
  }
  console.log(
    `[faults] ${action}: ${steps.length} steps [${steps.map(describeCall).join(' → ')}] outcomes ${outcomes.join(' ')}`,
  );
  return steps.map(describeCall);
}

describe('orders with a fault at every DynamoDB call of the request, one at a time', () => {
  it('placing an order: never a half-written order or a webhook without its order; the retry places one', async () => {
    const steps = await sweepPlace(['fail', 'lose', 'stall']);
    expect(steps).toContain('dynamodb:TransactWriteItems(orders)');
  });

  it.each(['confirm', 'ship', 'deliver', 'cancel', 'refund'] as const)(
    '%s: the order changes with exactly one webhook or not at all, and the retry completes or names the status reached',
    async (action) => {
      const steps = await sweepChange(action, ['fail', 'lose']);
      expect(steps).toContain('dynamodb:TransactWriteItems(orders)');
    },
  );
});
