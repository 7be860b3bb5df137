/** The partner's invoices (docs/billing.md). */
import {
  InvoiceNotFound,
  InvoiceNotIssuedYet,
  InvoiceNotOpen,
  InvoiceUnknownToProvider,
  SandboxActionUnsupported,
} from '../domain/errors';
import { type Entry, entry, general } from './outcome-kit';

export const BILLING_OUTCOMES: readonly Entry[] = [
  // Another partner's invoice is none of yours: the same 404 (docs/billing.md).
  entry(InvoiceNotFound, { api: { general: general(404, 'INVOICE_NOT_FOUND') } }),
  // A sandbox pay or overdue of an invoice that is paid, void or uncollectible: nothing is sent.
  entry(InvoiceNotOpen, { api: { general: general(409, 'INVOICE_NOT_OPEN') } }),
  // Stripe has no such invoice (its sandbox data was reset): a conflict with the record, not our failure; nothing is sent.
  entry(InvoiceUnknownToProvider, { api: { general: general(409, 'INVOICE_NOT_AT_STRIPE') } }),
  entry(SandboxActionUnsupported, { api: { general: general(501, 'NOT_SUPPORTED_BY_PROVIDER') } }),
  // Stripe's event about an invoice finalized but not yet recorded (the invoicing consumer is between its steps):
  // a 5xx, so Stripe sends it again (it retries for three days), and the record is there by then.
  entry(InvoiceNotIssuedYet, {
    api: {
      general: (error) => ({
        ...general(503, 'INVOICE_NOT_RECORDED_YET')(error),
        headers: { 'Retry-After': '60' },
      }),
    },
  }),
];
