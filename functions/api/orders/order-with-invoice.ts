/**
 * `GET /v1/orders/{order_id}`: the order with its invoice (the object `GET /v1/invoices`
 * and the invoice.* webhooks carry), `null` until it is issued.
 */
// zod/mini: the orders Lambda builds these schemas at cold start.
import * as z from 'zod/mini';
import type { InvoiceRecord } from '../../domain/billing/invoice';
import type { Order } from '../../domain/orders/order';
import { InvoiceBody, toInvoiceResponse } from '../invoices/invoice-response';
import { OrderBody, toOrderResponse } from './order-response';

export const OrderWithInvoiceBody = z.extend(OrderBody, {
  /** The order's one invoice, issued when it ships; `null` before. */
  invoice: z.nullable(InvoiceBody),
});
export type OrderWithInvoiceBody = z.infer<typeof OrderWithInvoiceBody>;

export const toOrderWithInvoiceResponse = (order: Order, invoice: InvoiceRecord | undefined): OrderWithInvoiceBody => ({
  ...toOrderResponse(order),
  invoice: invoice ? toInvoiceResponse(invoice) : null,
});
