/** The invoice in the partner API document's examples: the shipped example order's. */
import { EXAMPLE_ORDER_ID } from '../orders/order-examples';
import type { InvoiceBody } from './invoice-response';

export const EXAMPLE_INVOICE_ID = `inv_${EXAMPLE_ORDER_ID.replaceAll('-', '')}`;

export const OPEN_INVOICE: InvoiceBody = {
  id: EXAMPLE_INVOICE_ID,
  order_id: EXAMPLE_ORDER_ID,
  partner_org_id: 'acme-1',
  number: 'A1B2C3D4-0001',
  status: 'open',
  total: 31.56,
  amount_due: 31.56,
  amount_paid: 0,
  amount_credited: 0,
  due_date: '2026-12-22T12:05:00.000Z',
  hosted_invoice_url: 'https://invoice.stripe.com/i/acct_1Nv0FGQ9RKHgCVdK/test_YWNjdF8xTnYwRkdROVJLSGdDVmRL',
  invoice_pdf: 'https://pay.stripe.com/invoice/acct_1Nv0FGQ9RKHgCVdK/test_YWNjdF8xTnYwRkdROVJLSGdDVmRL/pdf',
  created: '2026-11-22T12:05:00.000Z',
};
