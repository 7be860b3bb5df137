/**
 * Example orders for the partner API document: one order at each stage a route shows,
 * consistent with each other (same id, items and totals), so a reader can follow one
 * order through the reference. Each must validate against `OrderBody` (test/api-docs checks).
 */
import type { OrderBody } from './order-response';

export const EXAMPLE_ORDER_ID = '0b6a4c55-0a57-4c1e-9d36-2f0c1f6e8a11';
export const EXAMPLE_OTHER_PARTNERS_ORDER_ID = '7c1e2f4a-5b6d-4e8f-9a0b-1c2d3e4f5a6b';

const PLACED_AT = '2036-01-01T00:00:00.000Z';
const CONFIRMED_AT = '2036-01-01T01:00:00.000Z';
const SHIPPED_AT = '2036-01-01T02:00:00.000Z';
const DELIVERED_AT = '2036-01-04T15:30:00.000Z';

export const PENDING_ORDER: OrderBody = {
  id: EXAMPLE_ORDER_ID,
  status: 'pending',
  partner_org_id: 'acme-1',
  internal_user_id: 'u-1',
  user_email: 'ada@acme.test',
  po_number: 'PO-2036-0042',
  notes: 'Deliver to the back entrance, please.',
  items: [
    { product_id: 'GLV-NIT-M-100', name: 'Nitrile Exam Gloves, Medium', unit: 'box of 100', quantity: 2, price: 12.49 },
  ],
  subtotal: 24.98,
  tax: 1.56,
  shipping: 9.95,
  total: 36.49,
  payment_method: 'invoice',
  shipping_address: { line1: '1 Main St', line2: 'Suite 100', city: 'Austin', state: 'Texas', zip: '78701' },
  created_at: PLACED_AT,
  updated_at: PLACED_AT,
  status_history: [{ status: 'pending', at: PLACED_AT }],
};

export const CONFIRMED_ORDER: OrderBody = {
  ...PENDING_ORDER,
  status: 'confirmed',
  updated_at: CONFIRMED_AT,
  status_history: [...PENDING_ORDER.status_history, { status: 'confirmed', at: CONFIRMED_AT }],
  confirmed_at: CONFIRMED_AT,
};

export const SHIPPED_ORDER: OrderBody = {
  ...CONFIRMED_ORDER,
  status: 'shipped',
  updated_at: SHIPPED_AT,
  status_history: [...CONFIRMED_ORDER.status_history, { status: 'shipped', at: SHIPPED_AT }],
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://track.example.com/1Z999AA10123456784',
  estimated_delivery: '2036-01-05T17:00:00Z',
  shipped_at: SHIPPED_AT,
};

export const DELIVERED_ORDER: OrderBody = {
  ...SHIPPED_ORDER,
  status: 'delivered',
  updated_at: DELIVERED_AT,
  status_history: [...SHIPPED_ORDER.status_history, { status: 'delivered', at: DELIVERED_AT }],
  delivered_at: DELIVERED_AT,
  signature: 'R. Front Desk',
};

export const CANCELLED_ORDER: OrderBody = {
  ...PENDING_ORDER,
  status: 'cancelled',
  updated_at: CONFIRMED_AT,
  status_history: [...PENDING_ORDER.status_history, { status: 'cancelled', at: CONFIRMED_AT }],
  cancelled_at: CONFIRMED_AT,
  cancellation_reason: 'ordered twice',
};

/** After a refund of part of the total: still `delivered`, so it can be refunded again. */
export const PARTIALLY_REFUNDED_ORDER: OrderBody = {
  ...DELIVERED_ORDER,
  updated_at: '2036-01-06T09:00:00.000Z',
  refund_amount: 12.49,
  refunded_at: '2036-01-06T09:00:00.000Z',
  refund_reason: 'one box damaged',
  amount_refunded: 12.49,
  refunds: [{ amount: 12.49, refunded_at: '2036-01-06T09:00:00.000Z', reason: 'one box damaged' }],
};

/** After a second refund, of the rest: `refunded`. */
export const REFUNDED_ORDER: OrderBody = {
  ...DELIVERED_ORDER,
  status: 'refunded',
  updated_at: '2036-01-07T09:00:00.000Z',
  status_history: [...DELIVERED_ORDER.status_history, { status: 'refunded', at: '2036-01-07T09:00:00.000Z' }],
  refund_amount: 24,
  refunded_at: '2036-01-07T09:00:00.000Z',
  amount_refunded: 36.49,
  refunds: [...(PARTIALLY_REFUNDED_ORDER.refunds ?? []), { amount: 24, refunded_at: '2036-01-07T09:00:00.000Z' }],
};
