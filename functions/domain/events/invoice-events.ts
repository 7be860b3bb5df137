import { createHash } from 'node:crypto';
import type { InvoiceEventKind } from './order-event-kinds';
import type { OrderEventMessage } from './order-event-message';
// Types only: the classic zod schemas stay out of the Lambdas that build these. The tests
// parse every event produced here with them.
import type { InvoiceEventData } from './order-events';
import { fromCents } from '../money';
import type { InvoiceRecord } from '../billing/invoice';

/**
 * The invoice's money as partners see it: every amount of the invoice object goes through
 * here, so moving them to cents (a dated API version) changes this and the two schemas'
 * amount type only (`amount()` in order-events.ts, `Dollars` in the API's response).
 */
const money = (cents: number): number => fromCents(cents);
const moneyOrNull = (cents: number | undefined): number | null => (cents === undefined ? null : money(cents));

/**
 * An invoice as partners see it: the one serializer of webhooks, `GET /v1/orders/{id}` and
 * `GET /v1/invoices`, so they never differ. Money in the order's format. An invoice recorded
 * before its lines and amounts were copied has `null` for them (the order has them).
 */
export const toInvoicePayload = (record: InvoiceRecord): InvoiceEventData['invoice'] => ({
  object: 'invoice',
  id: record.id,
  order_id: record.orderId,
  partner_org_id: record.internalOrgId,
  number: record.number,
  status: record.status,
  po_number: record.poNumber ?? null,
  subtotal: moneyOrNull(record.subtotalCents),
  tax: moneyOrNull(record.taxCents),
  shipping: moneyOrNull(record.shippingCents),
  total: money(record.totalCents),
  amount_due: money(record.amountDueCents),
  amount_paid: money(record.amountPaidCents),
  amount_credited: money(record.amountCreditedCents),
  lines:
    record.lines?.map((line) => ({
      description: line.description,
      sku: line.sku,
      quantity: line.quantity,
      unit_amount: money(line.unitAmountCents),
      amount: money(line.amountCents),
    })) ?? null,
  due_date: record.dueDate,
  paid_at: record.paidAt ?? null,
  hosted_invoice_url: record.hostedInvoiceUrl,
  invoice_pdf: record.invoicePdf,
  credit_notes: record.creditNotes.map((note) => ({
    id: note.id,
    number: note.number ?? null,
    amount: money(note.amountCents),
    created: note.createdAt,
    reason: note.reason ?? null,
    pdf: note.pdf ?? null,
  })),
  created: record.issuedAt,
});

/**
 * The id of one invoice event: `evt_` + 40 hex digits of SHA-256(`<invoiceId>:<kind>[:<n>]`),
 * as order events are named. `n` tells apart the events a kind can have more than once
 * (a credit note per refund); an invoice is issued, paid or overdue once. A retry after
 * the record was written gives the same id, and the fan-out's de-duplication makes it
 * one delivery.
 */
function invoiceEventId(invoiceId: string, kind: InvoiceEventKind, n?: number): string {
  const key = n === undefined ? `${invoiceId}:${kind}` : `${invoiceId}:${kind}:${n}`;
  return `evt_${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

const common = (record: InvoiceRecord) => ({
  invoice: toInvoicePayload(record),
  order_id: record.orderId,
  partner_org_id: record.internalOrgId,
});

const message = (
  record: InvoiceRecord,
  kind: InvoiceEventKind,
  timestamp: string,
  data: InvoiceEventData,
  n?: number,
): OrderEventMessage => ({
  eventId: invoiceEventId(record.id, kind, n),
  partnerId: record.partnerId,
  event: kind,
  timestamp,
  data,
  orderId: record.orderId,
  organizationId: record.organizationId,
});

/** invoice.issued: the invoice was finalized (it has a number, a hosted page and a PDF). */
export const invoiceIssuedEvent = (record: InvoiceRecord): OrderEventMessage =>
  message(record, 'invoice.issued', record.issuedAt, {
    ...common(record),
    issued_at: record.issuedAt,
  } satisfies InvoiceEventData<'invoice.issued'>);

/** invoice.credited, for the credit note of the refund `refundSequence` (already on the record). */
export function invoiceCreditedEvent(record: InvoiceRecord, refundSequence: number): OrderEventMessage {
  const note = record.creditNotes.find((candidate) => candidate.refundSequence === refundSequence);
  if (!note) throw new RangeError(`Invoice ${record.id} has no credit note for refund ${refundSequence}`);
  const data = {
    ...common(record),
    credit_note: { id: note.id, amount: money(note.amountCents), created_at: note.createdAt },
  } satisfies InvoiceEventData<'invoice.credited'>;
  return message(record, 'invoice.credited', note.createdAt, data, refundSequence);
}

/**
 * The partner's event for an invoice that Stripe reported paid or overdue (at `at`), or
 * `undefined` for a status no kind announces (void, uncollectible, still open).
 */
export function invoiceStatusEvent(record: InvoiceRecord, at: string): OrderEventMessage | undefined {
  if (record.status === 'paid')
    return message(record, 'invoice.paid', at, {
      ...common(record),
      paid_at: at,
    } satisfies InvoiceEventData<'invoice.paid'>);
  if (record.status === 'overdue')
    return message(record, 'invoice.overdue', at, {
      ...common(record),
      overdue_at: at,
    } satisfies InvoiceEventData<'invoice.overdue'>);
  return undefined;
}
