import { randomUUID } from 'node:crypto';
import { addDays } from 'date-fns';
import type { Order, OrderChange, OrderId, OrderStatus } from '../domain/orders/order';
import { PAYMENT_METHOD } from '../domain/orders/order';
import { orderEventFor } from '../domain/orders/order-event';
import type { OrganizationId, ProfileId, ShippingLocationId } from '../domain/organizations/organization';
import type { OrderEventKind } from '../domain/events/order-event-kinds';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import {
  HOUR_MS,
  SAMPLE_ADDRESS,
  SAMPLE_BUYER,
  SAMPLE_PO_NUMBER,
  type SampleEventInput,
  sampleItems,
  samplePricing,
} from './sample-cart';

/**
 * The statuses an order passes through to reach each kind's status, in order, on the
 * lifecycle's shortest path: so `sequence` and `previous_status` are what a real order
 * of that kind would carry (a cancellation from `pending`, a refund after delivery).
 */
const PATH_TO: Readonly<Record<OrderEventKind, readonly OrderStatus[]>> = {
  'order.created': ['pending'],
  'order.confirmed': ['pending', 'confirmed'],
  'order.shipped': ['pending', 'confirmed', 'shipped'],
  'order.delivered': ['pending', 'confirmed', 'shipped', 'delivered'],
  'order.cancelled': ['pending', 'cancelled'],
  'order.refunded': ['pending', 'confirmed', 'shipped', 'delivered', 'refunded'],
};

/**
 * A realistic order event of one kind, built the way real events are: the sample cart's
 * order is walked along its lifecycle and `orderEventFor` makes the event of its last
 * change, now. The order exists nowhere, so `GET /v1/orders/{order_id}` answers 404 for it.
 */
export function sampleOrderEvent(input: SampleEventInput<OrderEventKind>): OrderEventMessage {
  const path = PATH_TO[input.kind];
  const at = (index: number) => new Date(input.now.getTime() - (path.length - 1 - index) * HOUR_MS).toISOString();
  const items = sampleItems();
  const pricing = samplePricing(items);
  const history = path.map((status, index) =>
    sampleChange(status, index + 1, at(index), input.now, pricing.totalCents),
  );
  const last = history.at(-1) as OrderChange;
  const order: Order = {
    id: randomUUID() as OrderId,
    partnerId: input.partnerId,
    organizationId: randomUUID() as OrganizationId,
    internalOrgId: input.internalOrgId,
    profileId: randomUUID() as ProfileId,
    internalUserId: SAMPLE_BUYER.internalUserId,
    userEmail: SAMPLE_BUYER.email,
    poNumber: SAMPLE_PO_NUMBER,
    items,
    shippingAddress: { locationId: randomUUID() as ShippingLocationId, locationName: 'Main office', ...SAMPLE_ADDRESS },
    ...pricing,
    paymentMethod: PAYMENT_METHOD,
    status: last.status,
    createdAt: at(0),
    updatedAt: last.at,
    sequence: last.sequence,
    statusHistory: history,
  };
  return orderEventFor(order, last);
}

function sampleChange(status: OrderStatus, sequence: number, at: string, now: Date, totalCents: number): OrderChange {
  switch (status) {
    case 'pending':
    case 'confirmed':
      return { status, sequence, at };
    case 'shipped':
      return {
        status,
        sequence,
        at,
        trackingNumber: '1Z999AA10123456784',
        carrier: 'UPS',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        estimatedDelivery: addDays(now, 3).toISOString(),
      };
    case 'delivered':
      return { status, sequence, at, signature: 'J. Rivera' };
    case 'cancelled':
      return { status, sequence, at, reason: 'Ordered by mistake' };
    case 'refunded':
      return { status, sequence, at, amountCents: totalCents, reason: 'Damaged in transit' };
  }
}
