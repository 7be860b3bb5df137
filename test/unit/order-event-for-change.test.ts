import { describe, expect, it } from 'vitest';
import type { OrderId } from '../../functions/domain/orders/order';
import { latestOrderEvent, orderEventFor, orderEventId } from '../../functions/domain/orders/order-event';
import { ORDER_EVENT_DATA, OrderEventMessage, WEBHOOK_EVENT_DATA } from '../../functions/domain/events/order-events';
import { anOrderingWorld } from '../support/order-fixtures';

/** The publisher's rule for producer event ids (functions/webhooks/order-event-publisher.ts). */
const PUBLISHER_EVENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const SHIP = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-11-25T17:00:00.000Z',
};

/** One order through every change, with the events the repository was given, in order. */
async function anOrderThroughItsLife() {
  const world = await anOrderingWorld();
  await world.cartService.add(world.profile.id, 'GLV-NIT-M-100', 3);
  await world.cartService.add(world.profile.id, 'SPR-DIS-24OZ', 1);
  const placed = await world.orderService.placeOrder({ ...world, shippingLocationId: world.california.id });
  const scope = { partnerId: world.partner.id };
  for (const [action, input] of [
    ['confirm', {}],
    ['ship', SHIP],
    ['deliver', { signature: 'R. Front-Desk' }],
    ['refund', { amount: 12.49, reason: 'One box damaged' }],
  ] as const) {
    world.clock.advance(3_600_000);
    await world.orderService.transition(placed.id, action, input, scope);
  }
  return { ...world, placed, final: (await world.orders.get(placed.id))! };
}

describe('order events', () => {
  it('produce, for each change, data every existing schema accepts unchanged', async () => {
    const { orders } = await anOrderThroughItsLife();
    expect(orders.events.map((event) => event.event)).toEqual([
      'order.created',
      'order.confirmed',
      'order.shipped',
      'order.delivered',
      'order.refunded',
    ]);
    for (const event of orders.events) {
      expect(OrderEventMessage.parse(event)).toEqual(event);
      expect(WEBHOOK_EVENT_DATA[event.event].parse(event.data)).toEqual(event.data);
      expect(event.eventId).toMatch(PUBLISHER_EVENT_ID);
    }
  });

  it('order.created carries the snapshot in dollars, as the contract shows it', async () => {
    const { orders, placed, profile } = await anOrderThroughItsLife();
    const created = orders.events[0]!;
    expect(created).toMatchObject({ partnerId: placed.partnerId, timestamp: placed.createdAt });
    // 3 × 12.49 + 8.45 = 45.92; Stripe Tax (the test's California rate, 8.625%) = 3.9606 -> 3.96; under $150: 9.95 shipping.
    expect(created.data).toEqual({
      order_id: placed.id,
      partner_org_id: placed.internalOrgId,
      internal_user_id: profile.internalUserId,
      sequence: 1,
      previous_status: null,
      po_number: null,
      notes: null,
      user_email: profile.email,
      status: 'pending',
      items: [
        { product_id: 'GLV-NIT-M-100', name: 'Nitrile Exam Gloves, Powder-Free, Medium', quantity: 3, price: 12.49 },
        { product_id: 'SPR-DIS-24OZ', name: 'Disinfectant Spray, Hospital Grade', quantity: 1, price: 8.45 },
      ],
      subtotal: 45.92,
      tax: 3.96,
      shipping: 9.95,
      total: 59.83,
      payment_method: 'invoice',
      shipping_address: { line1: '1 Market St', city: 'San Jose', state: 'California', zip: '95113' },
    });
  });

  it('each later change carries its own fields and the time it happened', async () => {
    const { orders, final } = await anOrderThroughItsLife();
    const [, confirmed, shipped, delivered, refunded] = orders.events.map((event) => event.data);
    const at = (status: string) => final.statusHistory.find((change) => change.status === status)!.at;
    const ids = {
      order_id: final.id,
      partner_org_id: final.internalOrgId,
      internal_user_id: final.internalUserId,
      po_number: null,
      notes: null,
    };
    expect(confirmed).toEqual({
      ...ids,
      sequence: 2,
      previous_status: 'pending',
      status: 'confirmed',
      confirmed_at: at('confirmed'),
    });
    expect(shipped).toMatchObject({
      ...SHIP,
      sequence: 3,
      previous_status: 'confirmed',
      status: 'shipped',
      shipped_at: at('shipped'),
      total: 59.83,
    });
    expect(delivered).toEqual({
      ...ids,
      sequence: 4,
      previous_status: 'shipped',
      status: 'delivered',
      delivered_at: at('delivered'),
      signature: 'R. Front-Desk',
    });
    expect(refunded).toEqual({
      ...ids,
      sequence: 5,
      previous_status: 'delivered',
      // 12.49 of 59.83: a partial refund, so the order stays delivered.
      status: 'delivered',
      refunded_at: at('refunded'),
      refund_amount: 12.49,
      amount_refunded: 12.49,
      reason: 'One box damaged',
    });
    expect(orders.events.map((event) => event.timestamp)).toEqual(final.statusHistory.map((change) => change.at));
  });

  it('gives each refund of an order its own event id, and the same id to the same change read again', async () => {
    const { orders, placed, orderService, partner, clock } = await anOrderThroughItsLife();
    clock.advance(60_000);
    await orderService.transition(placed.id, 'refund', { amount: 1 }, { partnerId: partner.id });
    const refunds = orders.events.filter((event) => event.event === 'order.refunded');
    expect(refunds).toHaveLength(2);
    expect(refunds[0]!.eventId).not.toBe(refunds[1]!.eventId);
    const final = (await orders.get(placed.id))!;
    expect(latestOrderEvent(final).eventId).toBe(refunds[1]!.eventId);
    for (const event of refunds) expect(ORDER_EVENT_DATA['order.refunded'].parse(event.data)).toEqual(event.data);
  });

  it('order.cancelled carries the reason when one was given', async () => {
    const world = await anOrderingWorld();
    await world.cartService.add(world.profile.id, 'GLV-NIT-M-100');
    const order = await world.orderService.placeOrder(world);
    await world.orderService.transition(
      order.id,
      'cancel',
      { reason: 'Ordered twice' },
      { partnerId: world.partner.id },
    );
    const cancelled = world.orders.events[1]!;
    expect(ORDER_EVENT_DATA['order.cancelled'].parse(cancelled.data)).toEqual(cancelled.data);
    expect(cancelled.data).toMatchObject({ status: 'cancelled', reason: 'Ordered twice' });
  });

  it('derive their id from the order and the kind only, so a retried change makes the same event', async () => {
    const { orders, final } = await anOrderThroughItsLife();
    for (const [index, change] of final.statusHistory.entries()) {
      const again = orderEventFor(final, change);
      expect(again.eventId).toBe(orders.events[index]!.eventId);
      // The stored event also names its order and organization (correlation ids, never in the payload).
      const correlation = { orderId: final.id, organizationId: final.organizationId };
      expect({ ...again, ...correlation }).toEqual(orders.events[index]);
    }
    expect({ ...latestOrderEvent(final), orderId: final.id, organizationId: final.organizationId }).toEqual(
      orders.events.at(-1),
    );
    expect(new Set(orders.events.map((event) => event.eventId)).size).toBe(orders.events.length);

    const orderId = '0b5a2a4e-5d0e-4b8e-9a3c-2f1f0c9d8e7a' as OrderId;
    expect(orderEventId(orderId, 'order.shipped')).toBe(orderEventId(orderId, 'order.shipped'));
    expect(orderEventId(orderId, 'order.shipped')).not.toBe(orderEventId(orderId, 'order.delivered'));
    expect(orderEventId(orderId, 'order.shipped')).not.toBe(
      orderEventId('1b5a2a4e-5d0e-4b8e-9a3c-2f1f0c9d8e7a' as OrderId, 'order.shipped'),
    );
    expect(orderEventId(orderId, 'order.shipped')).toMatch(/^evt_[0-9a-f]{40}$/);
  });
});
