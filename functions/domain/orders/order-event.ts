import { createHash } from 'node:crypto';
import { fromCents } from '../money';
import type { OrderEventKind } from '../events/order-event-kinds';
import type { OrderEventMessage } from '../events/order-event-message';
// Types only: the classic zod schemas stay out of the orders Lambda's bundle. The unit
// tests parse every event produced here with them.
import type { OrderEventData } from '../events/order-events';
import { type Order, type OrderChange, type OrderId, type OrderStatus, refundedTotalOf } from './order';

const KIND_OF_STATUS: Readonly<Record<OrderStatus, OrderEventKind>> = {
  pending: 'order.created',
  confirmed: 'order.confirmed',
  shipped: 'order.shipped',
  delivered: 'order.delivered',
  cancelled: 'order.cancelled',
  refunded: 'order.refunded',
};

export const orderEventKind = (status: OrderStatus): OrderEventKind => KIND_OF_STATUS[status];

/**
 * The id of the event of one change: `evt_` + the first 40 hex digits of
 * SHA-256(`<orderId>:<kind>`), and for a refund `<orderId>:<kind>:<sequence>`. Every kind
 * but `order.refunded` happens at most once per order; an order may be refunded in parts,
 * so a refund's id adds the change's sequence. Re-reading the outbox gives the same id,
 * and the fan-out's de-duplication on (partner, event id) makes it one delivery.
 */
export function orderEventId(orderId: OrderId, kind: OrderEventKind, sequence?: number): string {
  const name =
    kind === 'order.refunded' && sequence !== undefined ? `${orderId}:${kind}:${sequence}` : `${orderId}:${kind}`;
  return `evt_${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
}

/**
 * The webhook event of one change of an order, in the exact form the order-events queue
 * carries (`OrderEventMessage`), so the outbox can put it there as is. `timestamp` is
 * the time of the change.
 */
export function orderEventFor(order: Order, change: OrderChange): OrderEventMessage {
  const kind = orderEventKind(change.status);
  return {
    eventId: orderEventId(order.id, kind, change.sequence),
    partnerId: order.partnerId,
    event: kind,
    timestamp: change.at,
    data: eventData(order, change),
  };
}

/** The event of the order's latest change (what a change just wrote). */
export function latestOrderEvent(order: Order): OrderEventMessage {
  const change = order.statusHistory.at(-1);
  if (!change) throw new RangeError(`Order ${order.id} has no history`);
  return orderEventFor(order, change);
}

function eventData(order: Order, change: OrderChange): Record<string, unknown> {
  const previous = order.statusHistory.find((entry) => entry.sequence === change.sequence - 1);
  const common = {
    order_id: order.id,
    partner_org_id: order.internalOrgId,
    internal_user_id: order.internalUserId,
    sequence: change.sequence,
    previous_status: previous?.status ?? null,
    // The buyer's references travel with every event of the order, so a receiver of any one can file it.
    po_number: order.poNumber ?? null,
    notes: order.notes ?? null,
  };
  switch (change.status) {
    case 'pending':
      return {
        ...common,
        user_email: order.userEmail,
        ...(order.approvedBy
          ? { approved_by: { internal_user_id: order.approvedBy.internalUserId, email: order.approvedBy.email } }
          : {}),
        status: 'pending',
        items: payloadItems(order),
        subtotal: fromCents(order.subtotalCents),
        tax: fromCents(order.taxCents),
        shipping: fromCents(order.shippingCents),
        total: fromCents(order.totalCents),
        payment_method: order.paymentMethod,
        shipping_address: payloadAddress(order),
      } satisfies OrderEventData<'order.created'>;
    case 'confirmed':
      return { ...common, status: 'confirmed', confirmed_at: change.at } satisfies OrderEventData<'order.confirmed'>;
    case 'shipped':
      return {
        ...common,
        status: 'shipped',
        tracking_number: change.trackingNumber,
        carrier: change.carrier,
        tracking_url: change.trackingUrl,
        estimated_delivery: change.estimatedDelivery,
        shipped_at: change.at,
        items: payloadItems(order),
        total: fromCents(order.totalCents),
        shipping_address: payloadAddress(order),
      } satisfies OrderEventData<'order.shipped'>;
    case 'delivered':
      return {
        ...common,
        status: 'delivered',
        delivered_at: change.at,
        signature: change.signature,
      } satisfies OrderEventData<'order.delivered'>;
    case 'cancelled':
      return {
        ...common,
        status: 'cancelled',
        cancelled_at: change.at,
        ...(change.reason === undefined ? {} : { reason: change.reason }),
      } satisfies OrderEventData<'order.cancelled'>;
    case 'refunded': {
      const refundedTotal = refundedTotalOf(change);
      return {
        ...common,
        // Refunds come only from delivered, and a partial one leaves the order there.
        previous_status: 'delivered',
        status: refundedTotal === order.totalCents ? 'refunded' : 'delivered',
        refunded_at: change.at,
        refund_amount: fromCents(change.amountCents),
        amount_refunded: fromCents(refundedTotal),
        ...(change.reason === undefined ? {} : { reason: change.reason }),
      } satisfies OrderEventData<'order.refunded'>;
    }
  }
}

const payloadItems = (order: Order): OrderEventData<'order.created'>['items'] =>
  order.items.map((item) => ({
    product_id: item.productId,
    name: item.name,
    quantity: item.quantity,
    price: fromCents(item.unitPriceCents),
  }));

/** The contract's payload address: line1, city, state, zip (line2 and the location are ours only). */
const payloadAddress = (order: Order): OrderEventData<'order.created'>['shipping_address'] => ({
  line1: order.shippingAddress.line1,
  city: order.shippingAddress.city,
  state: order.shippingAddress.state,
  zip: order.shippingAddress.zip,
});
