/**
 * An invoice as `GET /v1/invoices` and `GET /v1/invoices/{invoice_id}` answer it: the
 * webhooks' `invoice` object, built by the same serializer (`toInvoicePayload`), so the
 * API and the events never differ. Strict, so the document and the contract tests hold
 * real responses to it.
 */
// zod/mini: the orders Lambda builds these schemas at cold start.
import * as z from 'zod/mini';
import { type InvoiceRecord, InvoiceStatusSchema } from '../../domain/billing/invoice';
import type { InvoicePage } from '../../domain/billing/invoice-repository';
import { toInvoicePayload } from '../../domain/events/invoice-events';
import { Dollars } from '../orders/order-response';

const InvoiceLineBody = z.strictObject({
  description: z.string(),
  sku: z.string(),
  quantity: z.int().check(z.positive()),
  unit_amount: Dollars,
  /** quantity × unit amount. */
  amount: Dollars,
});

const CreditNoteBody = z.strictObject({
  id: z.string(),
  /** Stripe's number of the note; `null` on notes issued before it was kept. */
  number: z.nullable(z.string()),
  amount: Dollars,
  created: z.iso.datetime({ offset: true }),
  /** The refund's reason, as it was given; `null` without one. */
  reason: z.nullable(z.string()),
  /** The note's PDF; `null` on notes issued before it was kept. */
  pdf: z.nullable(z.url()),
});

export const InvoiceBody = z.strictObject({
  object: z.literal('invoice'),
  id: z.string(),
  order_id: z.string(),
  partner_org_id: z.string(),
  /** Stripe's invoice number, e.g. `A1B2C3D4-0001`. */
  number: z.string(),
  status: InvoiceStatusSchema,
  po_number: z.nullable(z.string()),
  /** `null` (with `tax`, `shipping` and `lines`) on invoices issued before they were copied onto it. */
  subtotal: z.nullable(Dollars),
  tax: z.nullable(Dollars),
  shipping: z.nullable(Dollars),
  total: Dollars,
  amount_due: Dollars,
  amount_paid: Dollars,
  amount_credited: Dollars,
  lines: z.nullable(z.array(InvoiceLineBody)),
  due_date: z.iso.datetime({ offset: true }),
  /** `null` until paid. */
  paid_at: z.nullable(z.iso.datetime({ offset: true })),
  hosted_invoice_url: z.url(),
  invoice_pdf: z.url(),
  credit_notes: z.array(CreditNoteBody),
  created: z.iso.datetime({ offset: true }),
});
export type InvoiceBody = z.infer<typeof InvoiceBody>;

export const InvoiceListBody = z.strictObject({ data: z.array(InvoiceBody), has_more: z.boolean() });
export type InvoiceListBody = z.infer<typeof InvoiceListBody>;

export const toInvoiceResponse = (record: InvoiceRecord): InvoiceBody => toInvoicePayload(record);

export const toInvoiceListResponse = (page: InvoicePage): InvoiceListBody => ({
  data: page.invoices.map(toInvoiceResponse),
  has_more: page.hasMore,
});
