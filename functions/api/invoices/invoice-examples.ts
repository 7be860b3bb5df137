/** The invoice in the partner API document's examples: the shipped example order's. */
import { EXAMPLE_ORDER_ID } from '../orders/order-examples';
import type { InvoiceBody } from './invoice-response';

export const EXAMPLE_INVOICE_ID = `inv_${EXAMPLE_ORDER_ID.replaceAll('-', '')}`;

export const OPEN_INVOICE: InvoiceBody = {
  object: 'invoice',
  id: EXAMPLE_INVOICE_ID,
  order_id: EXAMPLE_ORDER_ID,
  partner_org_id: 'acme-1',
  number: 'A1B2C3D4-0001',
  status: 'open',
  po_number: 'PO-2036-0042',
  subtotal: 24.98,
  tax: 1.56,
  shipping: 9.95,
  total: 36.49,
  amount_due: 31.49,
  amount_paid: 0,
  amount_credited: 5,
  lines: [
    {
      description: 'Nitrile Exam Gloves, Medium',
      sku: 'GLV-NIT-M-100',
      quantity: 2,
      unit_amount: 12.49,
      amount: 24.98,
    },
  ],
  due_date: '2026-12-22T12:05:00.000Z',
  paid_at: null,
  hosted_invoice_url: 'https://invoice.stripe.com/i/acct_1Nv0FGQ9RKHgCVdK/test_YWNjdF8xTnYwRkdROVJLSGdDVmRL',
  invoice_pdf: 'https://pay.stripe.com/invoice/acct_1Nv0FGQ9RKHgCVdK/test_YWNjdF8xTnYwRkdROVJLSGdDVmRL/pdf',
  credit_notes: [
    {
      id: 'cn_1Nv0FGQ9RKHgCVdKq2bQ3x4Z',
      number: 'A1B2C3D4-0001-CN-01',
      amount: 5,
      created: '2026-11-25T09:30:00.000Z',
      reason: 'One box arrived damaged',
      pdf: 'https://pay.stripe.com/credit_notes/acct_1Nv0FGQ9RKHgCVdK/test_cn_1Nv0FGQ9RKHgCVdKq2bQ3x4Z/pdf',
    },
  ],
  created: '2026-11-22T12:05:00.000Z',
};
