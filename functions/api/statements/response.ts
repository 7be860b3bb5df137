/**
 * `GET /v1/organizations/{internalOrgId}/statement`: what one of the partner's
 * organizations owes, its open invoices (the invoice object of `GET /v1/invoices`) oldest
 * first, and the part past due by age. Strict, so the document and the contract tests hold
 * real responses to it.
 */
// zod/mini: the orders Lambda builds these schemas at cold start.
import * as z from 'zod/mini';
import type { OrganizationStatement } from '../../domain/billing/organization-statement';
import { fromCents } from '../../domain/money';
import { InvoiceBody, toInvoiceResponse } from '../invoices/invoice-response';
import { Dollars } from '../orders/order-response';

export const StatementBody = z.strictObject({
  object: z.literal('statement'),
  internal_org_id: z.string(),
  /** The zone the days past due are counted in. */
  time_zone: z.string(),
  as_of: z.iso.datetime({ offset: true }),
  total_due: Dollars,
  overdue: z.strictObject({
    days_1_30: Dollars,
    days_31_60: Dollars,
    days_61_90: Dollars,
    over_90: Dollars,
  }),
  invoices: z.array(InvoiceBody),
});
export type StatementBody = z.infer<typeof StatementBody>;

export const toStatementResponse = (statement: OrganizationStatement): StatementBody => ({
  object: 'statement',
  internal_org_id: statement.internalOrgId,
  time_zone: statement.timeZone,
  as_of: statement.asOf,
  total_due: fromCents(statement.totalDueCents),
  overdue: {
    days_1_30: fromCents(statement.overdueCents.days_1_30),
    days_31_60: fromCents(statement.overdueCents.days_31_60),
    days_61_90: fromCents(statement.overdueCents.days_61_90),
    over_90: fromCents(statement.overdueCents.over_90),
  },
  invoices: statement.invoices.map(toInvoiceResponse),
});
