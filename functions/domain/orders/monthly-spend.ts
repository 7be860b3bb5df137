/**
 * Monthly limits (docs/setup.md, `monthlyLimit`): what a user's placed orders total in a
 * calendar month of the organization's time zone. The total is a counter written in each
 * order's own transaction, conditional on staying within the limit, so parallel orders
 * can never pass it together.
 */
import type { OrganizationAggregate, ProfileId } from '../organizations/organization';
import { canonicalTimeZone, STATE_TIME_ZONES } from '../time-zones';

/** Why an order goes to approval instead of being placed. */
export const LIMIT_REASONS = ['order_limit', 'monthly_limit'] as const;
export type LimitReason = (typeof LIMIT_REASONS)[number];

/** A month as `YYYY-MM`. */
export type SpendMonth = string & { readonly __brand: 'SpendMonth' };

/**
 * The zone an organization's months are counted in: its `timeZone` from setup, else the
 * primary zone of its default (else first) shipping location's state, else UTC; the same
 * order the module uses to show times, without the browser's.
 */
export function organizationTimeZone(aggregate: Pick<OrganizationAggregate, 'organization' | 'locations'>): string {
  const configured = aggregate.organization.timeZone;
  const zone = configured === undefined ? undefined : canonicalTimeZone(configured);
  if (zone) return zone;
  const location = aggregate.locations.find((l) => l.isDefault && l.isActive) ?? aggregate.locations[0];
  return location ? STATE_TIME_ZONES[location.address.province] : 'UTC';
}

const monthFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar month `at` falls in, in `timeZone` (a zone Intl knows). */
export function spendMonthOf(at: Date, timeZone: string): SpendMonth {
  let formatter = monthFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit' });
    monthFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(at);
  const year = parts.find((part) => part.type === 'year')?.value;
  const month = parts.find((part) => part.type === 'month')?.value;
  return `${year}-${month}` as SpendMonth;
}

/**
 * What an order adds to its user's month: always counted (so a limit set mid-month knows
 * what was spent), refused when `limitCents` is given and the month's total would pass it.
 */
export interface MonthSpendCharge {
  readonly profileId: ProfileId;
  readonly month: SpendMonth;
  readonly amountCents: number;
  readonly limitCents?: number;
}

/** A user's month: what their placed orders total, and their monthly limit if they have one. */
export interface MonthSpend {
  readonly month: SpendMonth;
  readonly spentCents: number;
  readonly limitCents?: number;
}
