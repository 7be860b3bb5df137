/**
 * The query of `GET /v1/invoices` (docs/billing.md): which organization, which status or
 * order, how many, and after which invoice. Unknown parameters are ignored, as on
 * `GET /v1/orders`.
 */
// zod/mini: parsed by the orders Lambda at runtime.
import * as z from 'zod/mini';
import { INVOICE_ID, InvoiceStatusSchema } from '../../domain/billing/invoice';
import { MAX_INVOICE_PAGE_SIZE } from '../../domain/billing/invoice-repository';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { ValidationFailed } from '../../domain/errors';
import { requiredField, requiredText, toValidationIssues } from '../../domain/validation';

const Limit = z.pipe(
  z.string({ error: requiredField }).check(
    z.refine((value: string) => /^\d+$/.test(value), {
      message: `must be a whole number from 1 to ${MAX_INVOICE_PAGE_SIZE}`,
      params: { code: 'INVALID_FORMAT' },
    }),
  ),
  z.pipe(z.transform(Number), z.number().check(z.int(), z.gte(1), z.lte(MAX_INVOICE_PAGE_SIZE))),
);

export const InvoiceListQuery = z.object({
  internal_org_id: requiredText(),
  status: z.optional(InvoiceStatusSchema),
  // Checked before any read: a value that is no UUID names no order (and could not be a key).
  order_id: z.optional(documented(z.uuid({ error: 'must be an order id (a UUID)' }), PATH_PARAMETER_RULES.uuid)),
  starting_after: z.optional(
    documented(
      z.string({ error: requiredField }).check(z.regex(INVOICE_ID, 'must be an invoice id (inv_ and 32 hex digits)')),
      PATH_PARAMETER_RULES.invoiceId,
    ),
  ),
  limit: z.optional(Limit),
});

export type InvoiceListQuery = z.output<typeof InvoiceListQuery>;

export function parseInvoiceListQuery(query: Record<string, string | undefined> | undefined): InvoiceListQuery {
  const parsed = InvoiceListQuery.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(
    issues,
    `The query is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
  );
}
