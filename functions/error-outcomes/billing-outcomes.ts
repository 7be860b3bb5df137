/** The partner's invoices (docs/billing.md). */
import { InvoiceNotFound } from '../domain/errors';
import { type Entry, entry, general } from './outcome-kit';

export const BILLING_OUTCOMES: readonly Entry[] = [
  // Another partner's invoice is none of yours: the same 404 (docs/billing.md).
  entry(InvoiceNotFound, { api: { general: general(404, 'INVOICE_NOT_FOUND') } }),
];
