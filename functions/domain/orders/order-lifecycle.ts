import { InvalidOrderTransition, ValidationFailed } from '../errors';
import { formatUsd } from '../money';
import type { Cents } from '../money';
import { type Order, type OrderChange, type OrderStatus, refundedCentsOf } from './order';
import type { OrderAction, OrderTransition } from './transition-input';

/**
 * The order lifecycle (docs/architecture.md, "Order lifecycle"): pending → confirmed → shipped →
 * delivered → refunded, and pending or confirmed → cancelled. Each action leads to one
 * status, and a status is reached at most once per order, except a refund: a partial
 * refund leaves the order delivered (refunded again later, up to its total), so refunds
 * are the one change that may happen more than once (their event ids add the sequence).
 */
export const ORDER_TRANSITIONS: Readonly<
  Record<OrderAction, { readonly from: readonly OrderStatus[]; readonly to: OrderStatus }>
> = {
  confirm: { from: ['pending'], to: 'confirmed' },
  ship: { from: ['confirmed'], to: 'shipped' },
  deliver: { from: ['shipped'], to: 'delivered' },
  cancel: { from: ['pending', 'confirmed'], to: 'cancelled' },
  refund: { from: ['delivered'], to: 'refunded' },
};

const canTransition = (status: OrderStatus, action: OrderAction): boolean =>
  ORDER_TRANSITIONS[action].from.includes(status);

/** The actions an order in this status allows, e.g. for the buttons a page shows. */
export const allowedActions = (status: OrderStatus): OrderAction[] =>
  (Object.keys(ORDER_TRANSITIONS) as OrderAction[]).filter((action) => canTransition(status, action));

export interface AppliedTransition {
  /** The order after the change: status, sequence + 1, history and the change's fields. */
  readonly order: Order;
  /** The history entry the change appended; its event is `orderEventFor(order, change)`. */
  readonly change: OrderChange;
}

/**
 * Applies a validated change to an order at a time, purely. Throws
 * InvalidOrderTransition when the order's status does not allow it, and
 * ValidationFailed for a refund larger than what is left to refund.
 */
export function applyTransition(order: Order, transition: OrderTransition, at: Date): AppliedTransition {
  const { to } = ORDER_TRANSITIONS[transition.action];
  if (!canTransition(order.status, transition.action)) throw new InvalidOrderTransition(order.id, order.status, to);

  const sequence = order.sequence + 1;
  const time = at.toISOString();
  const next = (change: OrderChange, fields: Partial<Order>): AppliedTransition => ({
    order: {
      ...order,
      status: change.status,
      // A partial refund keeps the order's status: `fields` says so.
      ...fields,
      sequence,
      updatedAt: time,
      statusHistory: [...order.statusHistory, change],
    },
    change,
  });

  switch (transition.action) {
    case 'confirm':
      return next({ status: 'confirmed', sequence, at: time }, { confirmedAt: time });
    case 'ship': {
      const shipment = {
        trackingNumber: transition.input.tracking_number,
        carrier: transition.input.carrier,
        trackingUrl: transition.input.tracking_url,
        estimatedDelivery: transition.input.estimated_delivery,
      };
      return next(
        { status: 'shipped', sequence, at: time, ...shipment },
        { shipment: { ...shipment, shippedAt: time } },
      );
    }
    case 'deliver': {
      const { signature } = transition.input;
      return next(
        { status: 'delivered', sequence, at: time, signature },
        { delivery: { deliveredAt: time, signature } },
      );
    }
    case 'cancel': {
      const { reason } = transition.input;
      return next(
        { status: 'cancelled', sequence, at: time, ...(reason === undefined ? {} : { reason }) },
        { cancellation: { cancelledAt: time, ...(reason === undefined ? {} : { reason }) } },
      );
    }
    case 'refund': {
      const { reason } = transition.input;
      const already = refundedCentsOf(order);
      const remaining = (order.totalCents - already) as Cents;
      const amountCents = transition.input.amount ?? remaining;
      if (amountCents > remaining) {
        const left =
          already === 0
            ? `the order's total, ${formatUsd(order.totalCents)}`
            : `what is left to refund, ${formatUsd(remaining)} (${formatUsd(already)} of ${formatUsd(order.totalCents)} was refunded)`;
        throw new ValidationFailed(
          [{ code: 'TOO_BIG', message: `amount must be at most ${left}`, path: ['amount'] }],
          `A refund cannot exceed ${left}`,
        );
      }
      const refundedTotalCents = (already + amountCents) as Cents;
      const withReason = reason === undefined ? {} : { reason };
      return next(
        { status: 'refunded', sequence, at: time, amountCents, refundedTotalCents, ...withReason },
        {
          // Partially refunded orders stay delivered, so they can be refunded again, up to the total.
          status: refundedTotalCents === order.totalCents ? 'refunded' : 'delivered',
          refund: { refundedAt: time, amountCents, ...withReason },
          refundedCents: refundedTotalCents,
        },
      );
    }
  }
}
