// zod/mini: the invoicing consumer and the Stripe events route parse stored records at cold start.
import * as z from 'zod/mini';
import type { OrderId } from '../orders/order';

export type InvoiceId = string & { readonly __brand: 'InvoiceId' };

/**
 * What an invoice can be, as partners see it. Stripe's `open` splits in two: `overdue`
 * is an open invoice past its due date (Stripe's `invoice.overdue`); Stripe's drafts are
 * never recorded (the record is written only once the invoice is finalized).
 */
export const INVOICE_STATUSES = ['open', 'paid', 'overdue', 'void', 'uncollectible'] as const;
export const InvoiceStatusSchema = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

const cents = () => z.number().check(z.int(), z.nonnegative());

/** One credit note, issued for one refund of the order (its change's `sequence`). */
const CreditNoteRecord = z.object({
  /** Stripe's credit note id (`cn_…`). */
  id: z.string().check(z.minLength(1)),
  /** The order change (a refund) it credits: at most one credit note per refund. */
  refundSequence: z.number().check(z.int(), z.positive()),
  amountCents: cents(),
  /** ISO 8601. */
  createdAt: z.iso.datetime({ offset: true }),
  /** Stripe's number (e.g. `A1B2C3D4-0001-CN-01`) and PDF, and the refund's reason: absent on notes recorded before they were kept. */
  number: z.optional(z.string().check(z.minLength(1))),
  pdf: z.optional(z.url()),
  reason: z.optional(z.string()),
});
type CreditNoteRecord = z.infer<typeof CreditNoteRecord>;

/** One line of the invoice's goods (shipping and tax are the invoice's own amounts, not lines). */
const InvoiceLineRecord = z.object({
  description: z.string().check(z.minLength(1)),
  sku: z.string().check(z.minLength(1)),
  quantity: z.number().check(z.int(), z.positive()),
  unitAmountCents: cents(),
  /** quantity × unit amount. */
  amountCents: cents(),
});

/**
 * The service's record of an order's one invoice (stored beside the order, keyed by it).
 * Money is integer cents, as everywhere inside the service.
 */
export const InvoiceRecord = z.object({
  id: z.string().check(z.minLength(1)),
  orderId: z.string().check(z.minLength(1)),
  partnerId: z.string().check(z.minLength(1)),
  /** The service's organization id, and the partner's (`partner_org_id` in payloads). */
  organizationId: z.string().check(z.minLength(1)),
  internalOrgId: z.string().check(z.minLength(1)),
  stripeInvoiceId: z.string().check(z.minLength(1)),
  /** Stripe's invoice number (set at finalization), e.g. `A1B2C3D4-0001`. */
  number: z.string().check(z.minLength(1)),
  status: InvoiceStatusSchema,
  /** Equals the order's total. */
  totalCents: cents(),
  /**
   * The order's goods, sales tax and shipping (subtotal + tax + shipping = total) and its lines, copied when the
   * invoice is issued; absent on invoices recorded before they were copied (partners see `null`).
   */
  subtotalCents: z.optional(cents()),
  taxCents: z.optional(cents()),
  shippingCents: z.optional(cents()),
  lines: z.optional(z.array(InvoiceLineRecord)),
  /** What is left to pay: total - paid - credited. */
  amountDueCents: cents(),
  amountPaidCents: cents(),
  /** The sum of `creditNotes`. */
  amountCreditedCents: cents(),
  /** ISO 8601: issue + the organization's payment terms. */
  dueDate: z.iso.datetime({ offset: true }),
  hostedInvoiceUrl: z.url(),
  invoicePdf: z.url(),
  poNumber: z.optional(z.string()),
  creditNotes: z.array(CreditNoteRecord),
  /** ISO 8601: when Stripe finalized it. */
  issuedAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  /**
   * Stripe's `created` (epoch seconds) of the last event applied: an event older than it
   * never changes the record (out-of-order delivery, docs/architecture.md, "Billing").
   */
  lastEventCreated: z.optional(z.number().check(z.int())),
  /** ISO 8601: when Stripe's event reported it paid (absent until paid, and on invoices paid before it was kept). */
  paidAt: z.optional(z.iso.datetime({ offset: true })),
  /** When Stripe last reported a failed payment attempt (the invoice stays `open`). */
  lastPaymentFailedAt: z.optional(z.iso.datetime({ offset: true })),
  /** 1 when recorded, +1 per change: the optimistic-concurrency version. */
  version: z.number().check(z.int(), z.positive()),
});
export type InvoiceRecord = z.infer<typeof InvoiceRecord>;

/**
 * The invoice id of an order: `inv_` + the order's UUID in 32 lower-case hex digits. One
 * order has at most one invoice, so deriving the id makes a second record of it a
 * conditional-write failure rather than a second invoice; and the id names its order, so
 * `GET /v1/invoices/{id}` reads the invoice beside its order with no index of its own.
 */
export const invoiceIdFor = (orderId: OrderId | string): InvoiceId =>
  `inv_${orderId.replaceAll('-', '').toLowerCase()}` as InvoiceId;

/** The shape of the service's order ids (UUIDs): anything else in a Stripe event's `metadata.orderId` is not ours. */
const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checked before any read: a string that can never name an order is never a key. */
export const isOrderIdShape = (value: string): boolean => value.length === 36 && ORDER_ID.test(value);

export const INVOICE_ID = /^inv_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/;

/** The order an invoice id names, or `undefined` for anything but an invoice id (names no invoice). */
export function orderIdOfInvoice(invoiceId: string): string | undefined {
  const parts = INVOICE_ID.exec(invoiceId);
  return parts ? parts.slice(1).join('-') : undefined;
}

/** What is left to credit: refunds beyond the invoice's total are never credited. */
export const creditableCents = (record: Pick<InvoiceRecord, 'totalCents' | 'amountCreditedCents'>): number =>
  Math.max(0, record.totalCents - record.amountCreditedCents);

/**
 * How far along an invoice is: between two events of the same second (Stripe's
 * `created` has one-second resolution), the one further along wins, so a paid invoice
 * never goes back to open or overdue.
 */
const PROGRESS: Readonly<Record<InvoiceStatus, number>> = { open: 0, overdue: 1, uncollectible: 2, paid: 3, void: 3 };

/** The state Stripe reports in one event about the invoice. */
export interface InvoiceEventState {
  /** Stripe's event `created` (epoch seconds). */
  readonly created: number;
  readonly status: InvoiceStatus;
  readonly amountPaidCents: number;
  readonly amountDueCents: number;
  /** ISO 8601, for `invoice.payment_failed`. */
  readonly paymentFailedAt?: string;
  /** ISO 8601: Stripe's due date, which its `overdue` can move (one due date, Stripe's). */
  readonly dueDate?: string;
}

/**
 * The record after one Stripe event, or `undefined` when the event must change nothing:
 * it is older than the last one applied, or of the same second and not further along.
 */
export function applyInvoiceEvent(
  record: InvoiceRecord,
  event: InvoiceEventState,
  now: string,
): InvoiceRecord | undefined {
  const last = record.lastEventCreated;
  if (last !== undefined && event.created < last) return undefined;
  if (
    last !== undefined &&
    event.created === last &&
    PROGRESS[event.status] <= PROGRESS[record.status] &&
    !event.paymentFailedAt
  )
    return undefined;
  // Terminal states stay: Stripe never reopens a paid or void invoice.
  if ((record.status === 'paid' || record.status === 'void') && event.status !== record.status) return undefined;
  return {
    ...record,
    status: event.status,
    amountPaidCents: event.amountPaidCents,
    amountDueCents: event.amountDueCents,
    ...(event.paymentFailedAt ? { lastPaymentFailedAt: event.paymentFailedAt } : {}),
    ...(event.dueDate ? { dueDate: event.dueDate } : {}),
    ...(event.status === 'paid' && record.status !== 'paid'
      ? { paidAt: new Date(event.created * 1000).toISOString() }
      : {}),
    lastEventCreated: event.created,
    updatedAt: now,
    version: record.version + 1,
  };
}
