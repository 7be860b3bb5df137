/**
 * Monthly limits (docs/setup.md, `monthlyLimit`), written once: what a user's live orders
 * total in a calendar month of the organization's time zone, and when an order would pass
 * the limit. The total is a counter written in each change's own transaction: an order
 * adds its total (conditional on staying within the limit, so parallel orders can never
 * pass it together), a cancellation or refund gives back what it takes off the order, so
 * the counter is always the sum of the month's live orders (docs/decisions.md).
 */
import { zonedStamp } from '../zoned-stamp';
import type { Cents } from '../money';
import { refundedCentsOf, type Order } from '../orders/order';
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
 * order the module uses to show times, without the browser's. A configured zone is named
 * as the organization was given it (`Asia/Kolkata`, never the alias Intl resolves it to,
 * `Asia/Calcutta`): both name the same rules.
 */
export function organizationTimeZone(aggregate: Pick<OrganizationAggregate, 'organization' | 'locations'>): string {
  const configured = aggregate.organization.timeZone;
  if (configured !== undefined && canonicalTimeZone(configured) !== undefined) return configured;
  const location = aggregate.locations.find((l) => l.isDefault && l.isActive) ?? aggregate.locations[0];
  return location ? STATE_TIME_ZONES[location.address.province] : 'UTC';
}

/** The calendar month `at` falls in, in `timeZone` (a zone Intl knows). */
export const spendMonthOf = (at: Date, timeZone: string): SpendMonth =>
  zonedStamp(at, timeZone).slice(0, 7) as SpendMonth;

/**
 * What an order counts for in its user's month and in the spend report: nothing once
 * cancelled, else its total (tax and shipping included) less its refunds.
 */
export const countedCentsOf = (order: Pick<Order, 'status' | 'totalCents' | 'refund' | 'refundedCents'>): Cents =>
  (order.status === 'cancelled' ? 0 : Math.max(order.totalCents - refundedCentsOf(order), 0)) as Cents;

/** What a change of an order gives back to the month it counted in: what it counted for before, less after. */
const givenBackCents = (before: Order, after: Order): number => countedCentsOf(before) - countedCentsOf(after);

/** THE rule: an order passes a monthly limit when the month's live orders and it together are above the limit. */
export const passesMonthlyLimit = (spentCents: number, orderCents: number, limitCents: number): boolean =>
  spentCents + orderCents > limitCents;

/** The most the month may hold for an order of `orderCents` to stay within the limit (the counter's condition). */
export const roomBefore = (orderCents: number, limitCents: number): number => limitCents - orderCents;

/** What the monthly limit leaves of the month (never below 0). */
export const remainingCentsOf = (spentCents: number, limitCents: number): Cents =>
  Math.max(limitCents - spentCents, 0) as Cents;

/**
 * Which limit, if any, an order of `orderCents` passes when the month holds `spentCents`:
 * the order limit first, then the monthly one. Checkout's quote, placing an order (with 0:
 * alone above the limit, no month could make room; the counter's condition weighs the rest)
 * and submitting for approval all ask this.
 */
export function limitPassedBy(
  limits: { readonly orderLimitCents?: number; readonly monthlyLimitCents?: number },
  spentCents: number,
  orderCents: number,
): LimitReason | undefined {
  if (limits.orderLimitCents !== undefined && orderCents > limits.orderLimitCents) return 'order_limit';
  if (limits.monthlyLimitCents !== undefined && passesMonthlyLimit(spentCents, orderCents, limits.monthlyLimitCents))
    return 'monthly_limit';
  return undefined;
}

/**
 * What an order adds to its user's month: always counted (so a limit set mid-month knows
 * what was spent), with the limit that applied when it was placed (what a past month
 * shows). `enforced` (checkout, the sandbox): a total that would pass the limit writes
 * nothing; an approved order is counted whatever the limit, since the approver allowed it.
 */
export interface MonthSpendCharge {
  readonly profileId: ProfileId;
  readonly month: SpendMonth;
  readonly amountCents: number;
  readonly limitCents?: number;
  readonly enforced: boolean;
}

/** What a cancellation or refund gives back to the month the order counted in. */
export interface MonthSpendCredit {
  readonly profileId: ProfileId;
  readonly month: SpendMonth;
  readonly amountCents: number;
}

/** Whether a change of an order gives anything back to its month. */
export const givesBack = (before: Order, after: Order): boolean => givenBackCents(before, after) !== 0;

/**
 * The give-back of an order's change, when the change takes something off what the order counts for, to `month`:
 * the order's `spendMonth`, or for an order placed before it was recorded, `placementMonthOf` it.
 */
export function monthSpendCredit(before: Order, after: Order, month: SpendMonth): MonthSpendCredit | undefined {
  const amountCents = givenBackCents(before, after);
  if (amountCents === 0) return undefined;
  return { profileId: before.profileId, month, amountCents };
}

/**
 * The month an order placed before `spendMonth` was recorded counted in: placing counted it in the month of its
 * placement (`createdAt`) in the organization's zone, the rule placement used then and uses now.
 */
export const placementMonthOf = (
  order: Pick<Order, 'createdAt'>,
  aggregate: Pick<OrganizationAggregate, 'organization' | 'locations'>,
): SpendMonth => spendMonthOf(new Date(order.createdAt), organizationTimeZone(aggregate));

/** A user's month counter as stored: the live orders' total, and the monthly limit recorded with its last order. */
export interface MonthCounter {
  readonly spentCents: number;
  /** `null`: the last order of the month was placed without a limit; absent: none recorded. */
  readonly limitCents?: number | null;
}

/** A user's month: what their live orders total, and their monthly limit if they have one. */
export interface MonthSpend {
  readonly month: SpendMonth;
  readonly spentCents: number;
  readonly limitCents?: number;
}

/**
 * Where a waiting request stands against the limit it waits for, with its requester's limits
 * and month now: the order limit and the order's total; or the monthly limit, what the month
 * holds (the counter the rule weighs), what remains and what the order would bring it to.
 * Undefined when the requester no longer has that limit.
 */
export type LimitStanding =
  | { readonly reason: 'order_limit'; readonly limitCents: Cents; readonly orderCents: Cents }
  | {
      readonly reason: 'monthly_limit';
      readonly month: SpendMonth;
      readonly limitCents: Cents;
      readonly spentCents: Cents;
      readonly remainingCents: Cents;
      readonly orderCents: Cents;
      readonly afterCents: Cents;
    };

export function limitStanding(
  reason: LimitReason,
  limits: { readonly orderLimitCents?: number; readonly monthlyLimitCents?: number },
  /** The requester's month now; only the monthly limit weighs it. */
  month: Pick<MonthSpend, 'month' | 'spentCents'> | undefined,
  orderCents: number,
): LimitStanding | undefined {
  const order = orderCents as Cents;
  if (reason === 'order_limit')
    return limits.orderLimitCents === undefined
      ? undefined
      : { reason, limitCents: limits.orderLimitCents as Cents, orderCents: order };
  if (limits.monthlyLimitCents === undefined || month === undefined) return undefined;
  return {
    reason,
    month: month.month,
    limitCents: limits.monthlyLimitCents as Cents,
    spentCents: month.spentCents as Cents,
    remainingCents: remainingCentsOf(month.spentCents, limits.monthlyLimitCents),
    orderCents: order,
    afterCents: (month.spentCents + orderCents) as Cents,
  };
}
