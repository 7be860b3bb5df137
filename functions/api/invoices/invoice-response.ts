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

export const InvoiceBody = z.strictObject({
  id: z.string(),
  order_id: z.string(),
  partner_org_id: z.string(),
  /** Stripe's invoice number, e.g. `A1B2C3D4-0001`. */
  number: z.string(),
  status: InvoiceStatusSchema,
  total: Dollars,
  amount_due: Dollars,
  amount_paid: Dollars,
  amount_credited: Dollars,
  due_date: z.iso.datetime({ offset: true }),
  hosted_invoice_url: z.url(),
  invoice_pdf: z.url(),
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
