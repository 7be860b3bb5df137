/**
 * Monthly limits (docs/setup.md, `monthlyLimit`): what a user's placed orders total in a
 * calendar month of the organization's time zone. The total is a counter written in each
 * order's own transaction, conditional on staying within the limit, so parallel orders
 * can never pass it together.
 */
import { formatInTimeZone } from 'date-fns-tz';
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

/** The calendar month `at` falls in, in `timeZone` (a zone Intl knows). */
export const spendMonthOf = (at: Date, timeZone: string): SpendMonth =>
  formatInTimeZone(at, timeZone, 'yyyy-MM') as SpendMonth;

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
