/**
 * The `webhooks` section of the partner API document: the six order events, the two
 * approval events and the four invoice events, their bodies (`DELIVERED_WEBHOOK_EVENT_DATA`: what the publisher
 * validates, with the invoice the fan-out adds to order kinds, inside the envelope the fan-out serialises) and the headers
 * every delivery carries (set in `functions/webhooks/webhook-dispatcher.ts`). A new
 * delivery header is one entry in `WEBHOOK_HEADERS`; a new data field is a field of its
 * kind's schema.
 */
import { z } from 'zod';
import { DELIVERED_WEBHOOK_EVENT_DATA } from '../domain/events/order-events';
import {
  WEBHOOK_EVENT_KINDS,
  type ApprovalEventKind,
  type InvoiceEventKind,
  type OrderEventKind,
  type WebhookEventKind,
} from '../domain/events/order-event-kinds';
import type { NamedSchema } from '../api/openapi/route-document';

export interface WebhookHeaderDocument {
  readonly description: string;
  readonly schema: z.ZodType;
  readonly example: string;
}

export const WEBHOOK_HEADERS: Readonly<Record<string, WebhookHeaderDocument>> = {
  'X-Service-Event': {
    description: "The event kind, as in the body's `event`.",
    schema: z.enum(WEBHOOK_EVENT_KINDS),
    example: 'order.created',
  },
  'X-Service-Signature': {
    description:
      '`sha256=` + the lowercase hex HMAC-SHA256 of the raw body bytes, keyed with your webhook secret (the whole string, `whsec_` prefix included). Verify it over the exact bytes received, before parsing, in constant time; reject a mismatch.',
    schema: z.string().regex(/^sha256=[0-9a-f]{64}$/),
    example: 'sha256=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
  },
  'X-Service-Delivery-ID': {
    description: 'UUID of the delivery: the same on every retry and replay of it. Your key for duplicate detection.',
    schema: z.uuid(),
    example: '6f1c2b8e-3f5e-4a59-9a43-0d9b3c1e2f10',
  },
  'X-Service-Timestamp': {
    description: 'Unix seconds when this attempt was made (differs between retries).',
    schema: z.string().regex(/^[0-9]+$/),
    example: '1795348800',
  },
  'webhook-id': {
    description: 'Standard Webhooks: the delivery id (the same as `X-Service-Delivery-ID`).',
    schema: z.uuid(),
    example: '6f1c2b8e-3f5e-4a59-9a43-0d9b3c1e2f10',
  },
  'webhook-timestamp': {
    description:
      'Standard Webhooks: Unix seconds of this attempt; signed, so a captured delivery cannot be replayed later.',
    schema: z.string().regex(/^[0-9]+$/),
    example: '1795348800',
  },
  'webhook-signature': {
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per live secret (two during a rotation\'s overlap). The key is the base64-decoded part after `whsec_`, or the UTF-8 bytes of a secret of another form.',
    schema: z.string().regex(/^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$/),
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};

export interface WebhookDocument<K extends WebhookEventKind = WebhookEventKind> {
  readonly kind: K;
  readonly summary: string;
  readonly body: NamedSchema;
  readonly example: unknown;
}

const envelope = <K extends WebhookEventKind>(kind: K) =>
  z.strictObject({
    event: z.literal(kind),
    /** When the change was published (ISO 8601); the same on every attempt. */
    timestamp: z.iso.datetime({ offset: true }),
    data: DELIVERED_WEBHOOK_EVENT_DATA[kind],
  });

const ORDER_ID = '0b6a4c55-0a57-4c1e-9d36-2f0c1f6e8a11';
const ADDRESS = { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' };
const ITEMS = [{ product_id: 'glove-m', name: 'Nitrile gloves (M)', quantity: 2, price: 12.5 }];

const example = (kind: OrderEventKind, timestamp: string, data: Record<string, unknown>) => ({
  event: kind,
  timestamp,
  data: { order_id: ORDER_ID, partner_org_id: 'acme-1', internal_user_id: 'u-1', ...data, invoice: null },
});

const ORDER_WEBHOOKS: readonly WebhookDocument<OrderEventKind>[] = [
  {
    kind: 'order.created',
    summary: 'A new order is placed',
    body: { name: 'OrderCreatedEvent', schema: envelope('order.created') },
    example: example('order.created', '2026-11-22T12:00:00.000Z', {
      user_email: 'ada@acme.test',
      status: 'pending',
      items: ITEMS,
      subtotal: 25,
      tax: 1.56,
      shipping: 5,
      total: 31.56,
      payment_method: 'invoice',
      shipping_address: ADDRESS,
    }),
  },
  {
    kind: 'order.confirmed',
    summary: 'The order is confirmed and processing begins',
    body: { name: 'OrderConfirmedEvent', schema: envelope('order.confirmed') },
    example: example('order.confirmed', '2026-11-22T13:00:00.000Z', {
      status: 'confirmed',
      confirmed_at: '2026-11-22T13:00:00.000Z',
    }),
  },
  {
    kind: 'order.shipped',
    summary: 'The order ships with tracking information',
    body: { name: 'OrderShippedEvent', schema: envelope('order.shipped') },
    example: example('order.shipped', '2026-11-23T09:00:00.000Z', {
      status: 'shipped',
      tracking_number: '1Z999AA10123456784',
      carrier: 'UPS',
      tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      estimated_delivery: '2026-11-25T17:00:00.000Z',
      shipped_at: '2026-11-23T09:00:00.000Z',
      items: ITEMS,
      total: 31.56,
      shipping_address: ADDRESS,
    }),
  },
  {
    kind: 'order.delivered',
    summary: 'The order is delivered',
    body: { name: 'OrderDeliveredEvent', schema: envelope('order.delivered') },
    example: example('order.delivered', '2026-11-25T15:30:00.000Z', {
      status: 'delivered',
      delivered_at: '2026-11-25T15:30:00.000Z',
      signature: 'J. Smith',
    }),
  },
  {
    kind: 'order.cancelled',
    summary: 'The order is cancelled',
    body: { name: 'OrderCancelledEvent', schema: envelope('order.cancelled') },
    example: example('order.cancelled', '2026-11-22T12:30:00.000Z', {
      status: 'cancelled',
      cancelled_at: '2026-11-22T12:30:00.000Z',
      reason: 'Ordered twice by mistake',
    }),
  },
  {
    kind: 'order.refunded',
    summary: 'A refund is processed (the whole order, or a part of it: then the order stays delivered)',
    body: { name: 'OrderRefundedEvent', schema: envelope('order.refunded') },
    example: example('order.refunded', '2026-11-28T10:00:00.000Z', {
      status: 'delivered',
      refunded_at: '2026-11-28T10:00:00.000Z',
      refund_amount: 12.5,
      amount_refunded: 12.5,
      reason: 'One box arrived damaged',
    }),
  },
];

const APPROVAL_REQUEST_ID = '3d9a7c1e-8f2b-4a65-b0d4-6e1f2a3b4c5d';

/**
 * The approval kinds: sent only to endpoints subscribed to them (the operator lists them
 * in the endpoint's events), so an endpoint set up without them keeps receiving exactly
 * the order kinds.
 */
const APPROVAL_WEBHOOKS: readonly WebhookDocument<ApprovalEventKind>[] = [
  {
    kind: 'approval.requested',
    summary: 'A user submits a cart above their order limit for approval (nothing is ordered yet)',
    body: { name: 'ApprovalRequestedEvent', schema: envelope('approval.requested') },
    example: {
      event: 'approval.requested',
      timestamp: '2026-11-22T11:00:00.000Z',
      data: {
        approval_request_id: APPROVAL_REQUEST_ID,
        partner_org_id: 'acme-1',
        internal_user_id: 'u-1',
        user_email: 'ada@acme.test',
        items: ITEMS,
        subtotal: 25,
        tax: 1.56,
        shipping: 5,
        total: 31.56,
        po_number: 'PO-2026-0042',
        notes: null,
        limit_reason: 'monthly_limit',
        resubmitted_from: null,
        created_at: '2026-11-22T11:00:00.000Z',
        expires_at: '2026-11-29T11:00:00.000Z',
      },
    },
  },
  {
    kind: 'approval.decided',
    summary:
      'An approval request reaches its one outcome: approved (its order.created follows), rejected, withdrawn or expired',
    body: { name: 'ApprovalDecidedEvent', schema: envelope('approval.decided') },
    example: {
      event: 'approval.decided',
      timestamp: '2026-11-22T12:00:00.000Z',
      data: {
        approval_request_id: APPROVAL_REQUEST_ID,
        partner_org_id: 'acme-1',
        decision: 'approved',
        decided_by: { internal_user_id: 'u-2', email: 'grace@acme.test' },
        order_id: ORDER_ID,
        comment: 'Approved for the flu season.',
        decided_at: '2026-11-22T12:00:00.000Z',
      },
    },
  },
];

const INVOICE = {
  object: 'invoice',
  id: 'inv_5f0c8e1a2b3c4d5e6f708192a3b4c5d6e7f80912',
  order_id: ORDER_ID,
  partner_org_id: 'acme-1',
  number: 'A1B2C3D4-0001',
  status: 'open',
  po_number: 'PO-2026-0042',
  subtotal: 25,
  tax: 1.56,
  shipping: 5,
  total: 31.56,
  amount_due: 31.56,
  amount_paid: 0,
  amount_credited: 0,
  lines: [{ description: 'Nitrile gloves (M)', sku: 'glove-m', quantity: 2, unit_amount: 12.5, amount: 25 }],
  due_date: '2026-12-22T12:05:00.000Z',
  paid_at: null,
  hosted_invoice_url: 'https://invoice.stripe.com/i/acct_1Nv0FGQ9RKHgCVdK/test_YWNjdF8xTnYwRkdROVJLSGdDVmRL',
  invoice_pdf: 'https://pay.stripe.com/invoice/acct_1Nv0FGQ9RKHgCVdK/test_YWNjdF8xTnYwRkdROVJLSGdDVmRL/pdf',
  credit_notes: [],
  created: '2026-11-22T12:05:00.000Z',
};

const invoiceExample = (kind: InvoiceEventKind, timestamp: string, data: Record<string, unknown>) => ({
  event: kind,
  timestamp,
  data: { order_id: ORDER_ID, partner_org_id: 'acme-1', ...data },
});

/**
 * The invoice kinds (docs/billing.md): sent only to endpoints subscribed to them, as the
 * approval kinds are.
 */
const INVOICE_WEBHOOKS: readonly WebhookDocument<InvoiceEventKind>[] = [
  {
    kind: 'invoice.issued',
    summary: "A shipped order's invoice is finalized: it has a number, a hosted payment page and a PDF",
    body: { name: 'InvoiceIssuedEvent', schema: envelope('invoice.issued') },
    example: invoiceExample('invoice.issued', '2026-11-22T12:05:00.000Z', {
      invoice: INVOICE,
      issued_at: '2026-11-22T12:05:00.000Z',
    }),
  },
  {
    kind: 'invoice.paid',
    summary: 'The organization paid the invoice in full',
    body: { name: 'InvoicePaidEvent', schema: envelope('invoice.paid') },
    example: invoiceExample('invoice.paid', '2026-12-01T09:30:00.000Z', {
      invoice: { ...INVOICE, status: 'paid', amount_due: 0, amount_paid: 31.56, paid_at: '2026-12-01T09:30:00.000Z' },
      paid_at: '2026-12-01T09:30:00.000Z',
    }),
  },
  {
    kind: 'invoice.overdue',
    summary: 'The invoice is past its due date and still unpaid',
    body: { name: 'InvoiceOverdueEvent', schema: envelope('invoice.overdue') },
    example: invoiceExample('invoice.overdue', '2026-12-23T00:00:00.000Z', {
      invoice: { ...INVOICE, status: 'overdue' },
      overdue_at: '2026-12-23T00:00:00.000Z',
    }),
  },
  {
    kind: 'invoice.credited',
    summary: "A refund of the invoiced order is credited: one credit note per refund, up to the invoice's total",
    body: { name: 'InvoiceCreditedEvent', schema: envelope('invoice.credited') },
    example: invoiceExample('invoice.credited', '2026-11-25T15:00:00.000Z', {
      invoice: {
        ...INVOICE,
        amount_due: 19.06,
        amount_credited: 12.5,
        credit_notes: [
          {
            id: 'cn_1Nv0FGQ9RKHgCVdK0001',
            number: 'A1B2C3D4-0001-CN-01',
            amount: 12.5,
            created: '2026-11-25T15:00:00.000Z',
            reason: 'One box arrived damaged',
            pdf: 'https://pay.stripe.com/credit_notes/acct_1Nv0FGQ9RKHgCVdK/test_cn_1Nv0FGQ9RKHgCVdK0001/pdf',
          },
        ],
      },
      credit_note: { id: 'cn_1Nv0FGQ9RKHgCVdK0001', amount: 12.5, created_at: '2026-11-25T15:00:00.000Z' },
    }),
  },
];

/** Every webhook kind's document, the order kinds first. */
export const WEBHOOKS: readonly WebhookDocument[] = [...ORDER_WEBHOOKS, ...APPROVAL_WEBHOOKS, ...INVOICE_WEBHOOKS];
