import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ORDER_EVENT_DATA, ORDER_EVENT_KINDS } from '../../functions/domain/events/order-events';
import { orderCreatedData, orderShippedData } from '../support/webhook-fixtures';

const common = { order_id: randomUUID(), partner_org_id: 'acme-1' };
const minimal = {
  'order.created': orderCreatedData('acme-1'),
  'order.confirmed': { ...common, confirmed_at: '2026-11-22T12:00:00Z' },
  'order.shipped': orderShippedData('acme-1'),
  'order.delivered': { ...common, delivered_at: '2026-11-24T09:30:00Z', signature: 'A. Lovelace' },
  'order.cancelled': { ...common, cancelled_at: '2026-11-22T13:00:00Z' },
  'order.refunded': { ...common, refunded_at: '2026-11-25T10:00:00Z', refund_amount: 12.5 },
} as const;
const statusOf = {
  'order.created': 'pending',
  'order.confirmed': 'confirmed',
  'order.shipped': 'shipped',
  'order.delivered': 'delivered',
  'order.cancelled': 'cancelled',
  'order.refunded': 'refunded',
} as const;

describe('order event data', () => {
  it.each(ORDER_EVENT_KINDS)('%s: accepts its documented fields and fills in its status', (kind) => {
    const { status: _status, ...withoutStatus } = minimal[kind] as Record<string, unknown>;
    const parsed = ORDER_EVENT_DATA[kind].parse(withoutStatus);
    expect(parsed.status).toBe(statusOf[kind]);
    expect(parsed.order_id).toBe((minimal[kind] as { order_id: string }).order_id);
  });

  it.each(ORDER_EVENT_KINDS)('%s: rejects another status, a non-UUID order id and unknown fields', (kind) => {
    const schema = ORDER_EVENT_DATA[kind];
    expect(schema.safeParse({ ...minimal[kind], status: 'lost' }).success).toBe(false);
    expect(schema.safeParse({ ...minimal[kind], order_id: 'order-1' }).success).toBe(false);
    expect(schema.safeParse({ ...minimal[kind], surprise: true }).success).toBe(false);
    expect(schema.safeParse({ ...minimal[kind], partner_org_id: undefined }).success).toBe(false);
  });

  it('order.created needs items with integer quantities and an address with line1, city, state and zip', () => {
    const data = orderCreatedData('acme-1');
    expect(
      ORDER_EVENT_DATA['order.created'].safeParse({ ...data, items: [{ ...data.items[0], quantity: 1.5 }] }).success,
    ).toBe(false);
    expect(ORDER_EVENT_DATA['order.created'].safeParse({ ...data, items: [] }).success).toBe(false);
    expect(
      ORDER_EVENT_DATA['order.created'].safeParse({
        ...data,
        shipping_address: { line1: '1 Main St', city: 'Austin', state: 'TX' },
      }).success,
    ).toBe(false);
  });

  it('order.shipped may also carry items, total and shipping_address', () => {
    const created = orderCreatedData('acme-1');
    const parsed = ORDER_EVENT_DATA['order.shipped'].parse({
      ...orderShippedData('acme-1'),
      items: created.items,
      total: created.total,
      shipping_address: created.shipping_address,
    });
    expect(parsed.total).toBe(created.total);
  });
});
