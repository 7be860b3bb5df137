/**
 * The six order event kinds, the two approval kinds and the four invoice kinds, and the `data` each carries
 * (contract: Events, Data fields; the approval kinds are ours, docs/module.md "Approvals").
 *
 * order.created, order.shipped and order.delivered follow the contract's tables. The
 * contract does not show the data of order.confirmed, order.cancelled and
 * order.refunded; ours carry the common fields plus the time of the change
 * (`confirmed_at`, `cancelled_at`, `refunded_at`) and, where useful, a reason or amount.
 * Unknown fields are rejected, so what partners receive is exactly what docs/webhooks.md
 * documents. `status` may be omitted: it is the kind's own value.
 */
import { z } from 'zod';
import { LIMIT_REASONS } from '../spending/monthly-spend';
import { ORDER_STATUSES } from '../orders/order';
import { requiredField } from '../validation';
import type { ApprovalEventKind, InvoiceEventKind, OrderEventKind, WebhookEventKind } from './order-event-kinds';

const text = () => z.string({ error: requiredField }).trim().min(1).max(256);
const isoTime = () => z.iso.datetime({ offset: true, error: requiredField });
const amount = () => z.number({ error: requiredField }).finite().nonnegative();
const status = <S extends string>(value: S) => z.literal(value).default(value);

const OrderItem = z.strictObject({
  product_id: text(),
  name: text(),
  quantity: z.number({ error: requiredField }).int().positive(),
  price: amount(),
});

/** The contract's shipping address object in payloads (not the API's address object). */
const PayloadShippingAddress = z.strictObject({
  line1: text(),
  city: text(),
  state: text(),
  zip: text(),
});

const common = {
  order_id: z.uuid({ error: requiredField }),
  /** The partner's internalOrgId: resolves the organization (and so the partner) the order belongs to. */
  partner_org_id: text(),
  /** Your internalUserId of who placed the order (the requester, for an approved one). Events built from orders always carry it. */
  internal_user_id: text().optional(),
  /**
   * Ordering aids (docs/webhooks.md): the order's change number (1 for order.created, +1
   * per change) and its status before this change (null for order.created). Events built
   * from orders always carry them; the raw `order-event` tool may omit them.
   */
  sequence: z.number().int().positive().optional(),
  previous_status: z.enum(ORDER_STATUSES).nullable().optional(),
  /**
   * The buyer's purchase-order number and notes from checkout (or the sandbox order's
   * `po_number` and `notes`), null when not given. Events built from orders always carry
   * them, on every kind; the raw `order-event` tool may omit them.
   */
  po_number: z.string().max(64).nullable().optional(),
  notes: z.string().max(500).nullable().optional(),
  /** Only on sample events sent by POST /v1/webhooks/test. */
  test: z.literal(true).optional(),
};

/** Who decided an approval request: the partner's id of the user and its e-mail. */
const ApprovalDecider = z.strictObject({
  internal_user_id: text(),
  email: z.email({ error: requiredField }).max(254),
});

export const OrderCreatedData = z.strictObject({
  ...common,
  user_email: z.email({ error: requiredField }).max(254),
  /**
   * Only on an order placed by approving an approval request: the approver. Absent on
   * every other order, so an order.created is what it was before approvals existed.
   */
  approved_by: ApprovalDecider.optional(),
  status: status('pending'),
  items: z.array(OrderItem, { error: requiredField }).min(1),
  subtotal: amount(),
  tax: amount(),
  shipping: amount(),
  total: amount(),
  payment_method: text(),
  shipping_address: PayloadShippingAddress,
});

const OrderConfirmedData = z.strictObject({
  ...common,
  status: status('confirmed'),
  confirmed_at: isoTime(),
});

const OrderShippedData = z.strictObject({
  ...common,
  status: status('shipped'),
  tracking_number: text(),
  carrier: text(),
  tracking_url: z.url({ protocol: /^https?$/, error: requiredField }),
  estimated_delivery: isoTime(),
  shipped_at: isoTime(),
  items: z.array(OrderItem).min(1).optional(),
  total: amount().optional(),
  shipping_address: PayloadShippingAddress.optional(),
});

const OrderDeliveredData = z.strictObject({
  ...common,
  status: status('delivered'),
  delivered_at: isoTime(),
  /** Name of the recipient who signed for the order. */
  signature: text(),
});

const OrderCancelledData = z.strictObject({
  ...common,
  status: status('cancelled'),
  cancelled_at: isoTime(),
  reason: text().optional(),
});

const OrderRefundedData = z.strictObject({
  ...common,
  /** The order's status after this refund: `refunded` once everything is refunded, `delivered` after a partial refund (another may follow). */
  status: z.enum(['refunded', 'delivered']).default('refunded'),
  refunded_at: isoTime(),
  /** This refund, in the order's currency units; absent (in events made up by hand) means the whole order. */
  refund_amount: amount().optional(),
  /** Every refund of the order so far, this one included (equals `total` once fully refunded). */
  amount_refunded: amount().optional(),
  reason: text().optional(),
});

/** What the approval kinds share: the request and the organization it belongs to. */
const approvalCommon = {
  approval_request_id: z.uuid({ error: requiredField }),
  partner_org_id: text(),
  /** Only on sample events sent by POST /v1/webhooks/test. */
  test: z.literal(true).optional(),
};

/**
 * A user asked for approval of a cart above their order limit: nothing is ordered yet.
 * Items and amounts are as the order would have them (and will, once approved).
 */
export const ApprovalRequestedData = z.strictObject({
  ...approvalCommon,
  /** The requester: the partner's id of the user and its e-mail. */
  internal_user_id: text(),
  user_email: z.email({ error: requiredField }).max(254),
  items: z.array(OrderItem, { error: requiredField }).min(1),
  subtotal: amount(),
  tax: amount(),
  shipping: amount(),
  total: amount(),
  po_number: z.string().max(64).nullable(),
  notes: z.string().max(500).nullable(),
  /** Which limit sent it to approval: the order's total above `order_limit`, or the month's orders above `monthly_limit`. */
  limit_reason: z.enum(LIMIT_REASONS, { error: requiredField }),
  /** The rejected or expired request this one resubmits, or null. */
  resubmitted_from: z.uuid().nullable(),
  created_at: isoTime(),
  /** Undecided by then, the request expires (an approval.decided with `decision: expired`). */
  expires_at: isoTime(),
});

const APPROVAL_DECISIONS = ['approved', 'rejected', 'expired', 'withdrawn'] as const;

/**
 * The request's one outcome. `decided_by` is the approver (approved, rejected); `order_id`
 * the order placed (approved; its order.created follows); `reason` the approver's (rejected), `comment` the approver's (approved, optional).
 */
export const ApprovalDecidedData = z.strictObject({
  ...approvalCommon,
  decision: z.enum(APPROVAL_DECISIONS, { error: requiredField }),
  decided_by: ApprovalDecider.optional(),
  order_id: z.uuid().optional(),
  reason: z.string().min(1).max(500).optional(),
  /** The approver's comment (approved, when given). */
  comment: z.string().min(1).max(500).optional(),
  decided_at: isoTime(),
});

const INVOICE_STATUSES = ['open', 'paid', 'overdue', 'void', 'uncollectible'] as const;

/**
 * An order's invoice as partners see it, in webhooks and on `GET /v1/orders/{id}` and
 * `GET /v1/invoices` alike (docs/billing.md, "Fields"): money in the order's format.
 */
const InvoicePayload = z.strictObject({
  object: z.literal('invoice'),
  id: text(),
  order_id: z.uuid({ error: requiredField }),
  partner_org_id: text(),
  /** Stripe's invoice number, e.g. `A1B2C3D4-0001`. */
  number: text(),
  status: z.enum(INVOICE_STATUSES, { error: requiredField }),
  /** The order's PO number, `null` without one. */
  po_number: z.string().max(64).nullable(),
  /** The goods, sales tax and shipping (subtotal + tax + shipping = total); `null` on invoices issued before they were copied. */
  subtotal: amount().nullable(),
  tax: amount().nullable(),
  shipping: amount().nullable(),
  /** The order's total. */
  total: amount(),
  /** What is left to pay: total − paid − credited. */
  amount_due: amount(),
  amount_paid: amount(),
  amount_credited: amount(),
  /** The goods, a line per item; `null` on invoices issued before they were copied (the order's `items` has them). */
  lines: z
    .array(
      z.strictObject({
        description: text(),
        sku: text(),
        quantity: z.number().int().positive(),
        unit_amount: amount(),
        /** quantity × unit amount. */
        amount: amount(),
      }),
    )
    .nullable(),
  due_date: isoTime(),
  /** When Stripe reported it paid; `null` until then (and on invoices paid before it was kept). */
  paid_at: isoTime().nullable(),
  hosted_invoice_url: z.url({ protocol: /^https?$/, error: requiredField }),
  invoice_pdf: z.url({ protocol: /^https?$/, error: requiredField }),
  /** Every credit note, oldest first (`invoice.credited` announces each); `null` fields were not kept when it was issued. */
  credit_notes: z.array(
    z.strictObject({
      id: text(),
      number: text().nullable(),
      amount: amount(),
      created: isoTime(),
      /** The refund's reason, as the refund was given it. */
      reason: z.string().max(500).nullable(),
      pdf: z.url({ protocol: /^https?$/ }).nullable(),
    }),
  ),
  /** When it was issued (finalized). */
  created: isoTime(),
});

/** What every invoice kind carries: the invoice, and its order and organization at the top level for routing. */
const invoiceCommon = {
  invoice: InvoicePayload,
  order_id: z.uuid({ error: requiredField }),
  partner_org_id: text(),
  /** Only on sample events sent by POST /v1/webhooks/test. */
  test: z.literal(true).optional(),
};

const InvoiceIssuedData = z.strictObject({ ...invoiceCommon, issued_at: isoTime() });
const InvoicePaidData = z.strictObject({ ...invoiceCommon, paid_at: isoTime() });
const InvoiceOverdueData = z.strictObject({ ...invoiceCommon, overdue_at: isoTime() });

/** One credit note, for one refund of the order: `invoice.amount_credited` is the sum of them all. */
const InvoiceCreditedData = z.strictObject({
  ...invoiceCommon,
  credit_note: z.strictObject({ id: text(), amount: amount(), created_at: isoTime() }),
});

const INVOICE_EVENT_DATA = {
  'invoice.issued': InvoiceIssuedData,
  'invoice.paid': InvoicePaidData,
  'invoice.overdue': InvoiceOverdueData,
  'invoice.credited': InvoiceCreditedData,
} as const satisfies Record<InvoiceEventKind, z.ZodType>;

export const ORDER_EVENT_DATA = {
  'order.created': OrderCreatedData,
  'order.confirmed': OrderConfirmedData,
  'order.shipped': OrderShippedData,
  'order.delivered': OrderDeliveredData,
  'order.cancelled': OrderCancelledData,
  'order.refunded': OrderRefundedData,
} as const satisfies Record<OrderEventKind, z.ZodType>;

const APPROVAL_EVENT_DATA = {
  'approval.requested': ApprovalRequestedData,
  'approval.decided': ApprovalDecidedData,
} as const satisfies Record<ApprovalEventKind, z.ZodType>;

/** Every kind's data, order, approval and invoice kinds alike. */
export const WEBHOOK_EVENT_DATA = {
  ...ORDER_EVENT_DATA,
  ...APPROVAL_EVENT_DATA,
  ...INVOICE_EVENT_DATA,
} as const satisfies Record<WebhookEventKind, z.ZodType>;

/**
 * What a partner receives for an order kind: the published data, and the order's invoice as
 * it is when the delivery is built (functions/webhooks/webhook-fanout.ts), `null` before one
 * is issued. The publisher validates the published data; the document describes this.
 */
const delivered = <S extends z.ZodObject>(schema: S) => schema.extend({ invoice: InvoicePayload.nullable() });

export const DELIVERED_ORDER_EVENT_DATA = {
  'order.created': delivered(OrderCreatedData),
  'order.confirmed': delivered(OrderConfirmedData),
  'order.shipped': delivered(OrderShippedData),
  'order.delivered': delivered(OrderDeliveredData),
  'order.cancelled': delivered(OrderCancelledData),
  'order.refunded': delivered(OrderRefundedData),
} as const satisfies Record<OrderEventKind, z.ZodType>;

/** Each kind's `data` as it reaches the partner (the webhooks section of docs/openapi.json). */
export const DELIVERED_WEBHOOK_EVENT_DATA = {
  ...DELIVERED_ORDER_EVENT_DATA,
  ...APPROVAL_EVENT_DATA,
  ...INVOICE_EVENT_DATA,
} as const satisfies Record<WebhookEventKind, z.ZodType>;

export { ORDER_EVENT_KINDS, OrderEventKind, WebhookEventKind } from './order-event-kinds';
export { OrderEventMessage } from './order-event-message';
export type OrderEventData<K extends OrderEventKind = OrderEventKind> = z.output<(typeof ORDER_EVENT_DATA)[K]>;
export type ApprovalEventData<K extends ApprovalEventKind = ApprovalEventKind> = z.output<
  (typeof APPROVAL_EVENT_DATA)[K]
>;
export type InvoiceEventData<K extends InvoiceEventKind = InvoiceEventKind> = z.output<(typeof INVOICE_EVENT_DATA)[K]>;
