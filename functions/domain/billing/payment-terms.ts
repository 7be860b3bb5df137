// zod/mini: setup parses this at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';

/**
 * How long an organization has to pay an invoice, counted from its issue (distributors'
 * account terms). `net30` for an organization that never chose.
 */
export const PAYMENT_TERMS = ['net15', 'net30', 'net60'] as const;
export const PaymentTerms = z.enum(PAYMENT_TERMS);
export type PaymentTerms = z.infer<typeof PaymentTerms>;

export const DEFAULT_PAYMENT_TERMS: PaymentTerms = 'net30';

const DAYS_UNTIL_DUE: Readonly<Record<PaymentTerms, number>> = { net15: 15, net30: 30, net60: 60 };

/** Stripe's `days_until_due` for the terms. */
export const daysUntilDue = (terms: PaymentTerms): number => DAYS_UNTIL_DUE[terms];
