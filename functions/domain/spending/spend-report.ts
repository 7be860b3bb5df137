/**
 * The spend report (docs/module.md "Spending", docs/orders-api.md): what an organization's
 * placed orders total in a month of its time zone, by user, by shipping location and by
 * category. "Placed" is decided in docs/decisions.md: orders created in the month that were
 * not cancelled, net of their refunds; categories count the goods (line amounts), since
 * tax, shipping and refunds are not kept per line.
 */
import { addMonths, lightFormat, parseISO, subMonths } from 'date-fns';
import { fromZonedTime } from 'date-fns-tz';
import type { Cents } from '../money';
import { refundedCentsOf, type Order, type OrderStatus } from '../orders/order';
import { countedCentsOf, type MonthCounter, remainingCentsOf, type SpendMonth } from './monthly-spend';
import type { Profile, ProfileId } from '../organizations/organization';
/** The most orders one report reads; a larger month is reported as incomplete, never read unbounded. */
export const MAX_SPEND_REPORT_ORDERS = 5000;

interface UserSpend {
  readonly internalUserId: string;
  readonly name: string;
  readonly totalCents: Cents;
  readonly orderLimitCents?: Cents;
  /**
   * This month: the user's monthly limit now; a past month: the limit recorded with their
   * last order of that month (absent when they had none, or ordered nothing then).
   */
  readonly monthlyLimitCents?: Cents;
  /** What the monthly limit leaves this month (never below 0); absent without a limit or for past months. */
  readonly remainingCents?: Cents;
}

interface LocationSpend {
  readonly internalShippingLocationId: string;
  readonly name: string;
  readonly totalCents: Cents;
}

interface CategorySpend {
  readonly category: string;
  readonly totalCents: Cents;
}

export interface SpendReport {
  readonly month: SpendMonth;
  readonly timeZone: string;
  readonly orderCount: number;
  readonly totalCents: Cents;
  readonly users: readonly UserSpend[];
  readonly locations: readonly LocationSpend[];
  readonly categories: readonly CategorySpend[];
  /** False when the month held more than MAX_SPEND_REPORT_ORDERS orders and only those were counted. */
  readonly complete: boolean;
}

const add = (totals: Map<string, number>, key: string, cents: number) =>
  totals.set(key, (totals.get(key) ?? 0) + cents);

export interface SpendReportInput {
  readonly month: SpendMonth;
  readonly timeZone: string;
  readonly orders: readonly Order[];
  readonly complete: boolean;
  readonly profiles: readonly Profile[];
  /** internalShippingLocationId by the location's id, for orders' snapshots. */
  readonly locationIds: ReadonlyMap<string, string>;
  /** A product's category by its id; products no longer in the catalog count as "Uncategorized". */
  readonly categoryOf: (productId: string) => string | undefined;
  /** The month's counters by profile: what the monthly limit weighs this month, and the limit a past month recorded. */
  readonly counters: ReadonlyMap<ProfileId, MonthCounter>;
  /** Whether the month is the organization's current one (only it has what the limit leaves). */
  readonly current: boolean;
}

export function spendReport(input: SpendReportInput): SpendReport {
  const byUser = new Map<string, number>();
  const byLocation = new Map<string, number>();
  const locationNames = new Map<string, string>();
  const byCategory = new Map<string, number>();
  let counted = 0;
  for (const order of input.orders) {
    if (order.status === 'cancelled') continue;
    counted += 1;
    const placed = countedCentsOf(order);
    add(byUser, order.internalUserId, placed);
    const location = input.locationIds.get(order.shippingAddress.locationId) ?? order.shippingAddress.locationId;
    add(byLocation, location, placed);
    locationNames.set(location, order.shippingAddress.locationName);
    for (const item of order.items)
      add(byCategory, input.categoryOf(item.productId) ?? 'Uncategorized', item.unitPriceCents * item.quantity);
  }
  // Every user of the organization is listed (with 0), so an approver sees each limit and what it leaves.
  const users: UserSpend[] = input.profiles.map((profile) => {
    const counter = input.counters.get(profile.id);
    const limit = input.current ? profile.monthlyLimitCents : (counter?.limitCents ?? undefined);
    return {
      internalUserId: profile.internalUserId,
      name: `${profile.firstName} ${profile.lastName}`,
      totalCents: byUser.get(profile.internalUserId) ?? 0,
      ...(profile.orderLimitCents === undefined ? {} : { orderLimitCents: profile.orderLimitCents }),
      ...(limit === undefined ? {} : { monthlyLimitCents: limit }),
      ...(limit === undefined || !input.current
        ? {}
        : { remainingCents: remainingCentsOf(counter?.spentCents ?? 0, limit) }),
    };
  });
  const byTotal = <T extends { totalCents: number }>(a: T, b: T) => b.totalCents - a.totalCents;
  return {
    month: input.month,
    timeZone: input.timeZone,
    orderCount: counted,
    totalCents: [...byUser.values()].reduce((sum, cents) => sum + cents, 0),
    users: users.sort((a, b) => byTotal(a, b) || a.internalUserId.localeCompare(b.internalUserId)),
    locations: [...byLocation]
      .map(([id, totalCents]) => ({ internalShippingLocationId: id, name: locationNames.get(id) ?? id, totalCents }))
      .sort(byTotal),
    categories: [...byCategory]
      .map(([category, totalCents]) => ({ category, totalCents }))
      .sort((a, b) => byTotal(a, b) || a.category.localeCompare(b.category)),
    complete: input.complete,
  };
}

/**
 * One order as the spend report's CSV lists it: its amounts, whose `netCents` is what the
 * order adds to the month's total, so the rows sum to the page's total to the cent.
 */
export interface SpendRow {
  readonly orderId: string;
  readonly poNumber?: string;
  readonly createdAt: string;
  readonly userName: string;
  readonly locationName: string;
  readonly status: OrderStatus;
  /** The order's invoice number, once it was invoiced. */
  readonly invoiceNumber?: string;
  readonly goodsCents: Cents;
  readonly taxCents: Cents;
  readonly shippingCents: Cents;
  readonly refundedCents: Cents;
  /** Goods + tax + shipping - refunded. */
  readonly netCents: Cents;
}

/** The counted (not cancelled) orders, oldest first: one row each. */
export function spendRows(
  orders: readonly Order[],
  profiles: readonly Profile[],
  invoiceNumbers: ReadonlyMap<string, string>,
): SpendRow[] {
  const names = new Map(profiles.map((p) => [p.internalUserId, `${p.firstName} ${p.lastName}`]));
  return orders
    .filter((order) => order.status !== 'cancelled')
    .toSorted((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((order) => {
      const invoiceNumber = invoiceNumbers.get(order.id);
      return {
        orderId: order.id,
        ...(order.poNumber === undefined ? {} : { poNumber: order.poNumber }),
        createdAt: order.createdAt,
        // A user removed since is still named by what the order kept.
        userName: names.get(order.internalUserId) ?? order.userEmail,
        locationName: order.shippingAddress.locationName,
        status: order.status,
        ...(invoiceNumber === undefined ? {} : { invoiceNumber }),
        goodsCents: order.subtotalCents,
        taxCents: order.taxCents,
        shippingCents: order.shippingCents,
        refundedCents: refundedCentsOf(order),
        netCents: countedCentsOf(order),
      };
    });
}

/** The months the service reports on: ones its orders can fall in, so their bounds are real instants. */
export const FIRST_SPEND_MONTH = '2000-01';
export const LAST_SPEND_MONTH = '2199-12';

/** `YYYY-MM` of a real month, else undefined. */
export function parseSpendMonth(text: string): SpendMonth | undefined {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text) ? (text as SpendMonth) : undefined;
}

/** A served month written as the API document states it (FIRST_SPEND_MONTH to LAST_SPEND_MONTH, years 2000 to 2199). */
export const SERVED_MONTH_PATTERN = /^2[01]\d{2}-(0[1-9]|1[0-2])$/;

/** Whether the service reports on `month` (FIRST_SPEND_MONTH to LAST_SPEND_MONTH). */
export const isServedMonth = (month: SpendMonth): boolean => month >= FIRST_SPEND_MONTH && month <= LAST_SPEND_MONTH;

/**
 * A `YYYY-MM` as a calendar date (the 1st), for date-fns' month arithmetic. `parseISO` and `lightFormat`, not `parse`
 * and `format`: those carry every pattern and the English locale (about 35 KB in each bundle on this path).
 */
const firstDayOf = (month: SpendMonth): Date => parseISO(month);

/** The month before `month`. */
export const previousMonth = (month: SpendMonth): SpendMonth =>
  lightFormat(subMonths(firstDayOf(month), 1), 'yyyy-MM') as SpendMonth;

/**
 * The UTC instants a month of `timeZone` spans, [start, end): the first midnight of the
 * month and of the next, in that zone.
 */
export function monthBounds(month: SpendMonth, timeZone: string): { readonly start: Date; readonly end: Date } {
  const midnight = (first: Date) => fromZonedTime(lightFormat(first, "yyyy-MM-dd'T'00:00:00"), timeZone);
  const first = firstDayOf(month);
  return { start: midnight(first), end: midnight(addMonths(first, 1)) };
}
