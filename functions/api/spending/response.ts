/**
 * The 200 body of GET /v1/organizations/{internalOrgId}/spend (docs/orders-api.md, "Spend
 * report"): the month's placed totals as the order API writes money (dollars, at most two
 * decimals) and names things (snake_case; users by `internal_user_id`, locations by their
 * `internalShippingLocationId`). Strict, so the contract tests hold real responses to it.
 */
// zod/mini: the orders Lambda builds this schema at cold start.
import * as z from 'zod/mini';
import { fromCents } from '../../domain/money';
import type { SpendReport } from '../../domain/spending/spend-report';
import { Dollars } from '../orders/order-response';

const UserSpendBody = z.strictObject({
  internal_user_id: z.string(),
  name: z.string(),
  total: Dollars,
  /** USD; `null` when the user has no order limit. */
  order_limit: z.nullable(Dollars),
  /** USD a calendar month; `null` when the user has no monthly limit (a past month: had none with their last order then). */
  monthly_limit: z.nullable(Dollars),
  /** What the monthly limit leaves this month; `null` without a monthly limit or for a past month. */
  remaining: z.nullable(Dollars),
});

export const SpendReportBody = z.strictObject({
  object: z.literal('spend_report'),
  internal_org_id: z.string(),
  month: z.string(),
  time_zone: z.string(),
  order_count: z.int().check(z.gte(0)),
  total: Dollars,
  complete: z.boolean(),
  users: z.array(UserSpendBody),
  locations: z.array(z.strictObject({ internal_shipping_location_id: z.string(), name: z.string(), total: Dollars })),
  categories: z.array(z.strictObject({ category: z.string(), total: Dollars })),
});
export type SpendReportBody = z.infer<typeof SpendReportBody>;

const dollarsOrNull = (cents: number | undefined) => (cents === undefined ? null : fromCents(cents));

export function toSpendReportResponse(internalOrgId: string, report: SpendReport): SpendReportBody {
  return {
    object: 'spend_report',
    internal_org_id: internalOrgId,
    month: report.month,
    time_zone: report.timeZone,
    order_count: report.orderCount,
    total: fromCents(report.totalCents),
    complete: report.complete,
    users: report.users.map((user) => ({
      internal_user_id: user.internalUserId,
      name: user.name,
      total: fromCents(user.totalCents),
      order_limit: dollarsOrNull(user.orderLimitCents),
      monthly_limit: dollarsOrNull(user.monthlyLimitCents),
      remaining: dollarsOrNull(user.remainingCents),
    })),
    locations: report.locations.map((location) => ({
      internal_shipping_location_id: location.internalShippingLocationId,
      name: location.name,
      total: fromCents(location.totalCents),
    })),
    categories: report.categories.map((category) => ({
      category: category.category,
      total: fromCents(category.totalCents),
    })),
  };
}
