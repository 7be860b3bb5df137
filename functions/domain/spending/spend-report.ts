/**
 * The spend report (docs/module.md "Spending", docs/orders-api.md): what an organization's
 * placed orders total in a month of its time zone, by user, by shipping location and by
 * category. "Placed" is decided in docs/decisions.md: orders created in the month that were
 * not cancelled, net of their refunds; categories count the goods (line amounts), since
 * tax, shipping and refunds are not kept per line.
 */
import { fromZonedTime } from 'date-fns-tz';
import type { Cents } from '../money';
import { refundedCentsOf, type Order } from '../orders/order';
import type { SpendMonth } from '../orders/monthly-spend';
import type { Profile } from '../organizations/organization';

/** The most orders one report reads; a larger month is reported as incomplete, never read unbounded. */
export const MAX_SPEND_REPORT_ORDERS = 5000;

interface UserSpend {
  readonly internalUserId: string;
  readonly name: string;
  readonly totalCents: Cents;
  readonly orderLimitCents?: Cents;
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

/** What an order counts for in the report: 0 when cancelled, else its total less its refunds. */
const placedCentsOf = (order: Order): Cents =>
  order.status === 'cancelled' ? 0 : Math.max(order.totalCents - refundedCentsOf(order), 0);

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
  /** This month's counted spend per profile (what the monthly limit weighs), when the month is the current one. */
  readonly currentMonthSpend?: ReadonlyMap<string, Cents>;
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
    const placed = placedCentsOf(order);
    add(byUser, order.internalUserId, placed);
    const location = input.locationIds.get(order.shippingAddress.locationId) ?? order.shippingAddress.locationId;
    add(byLocation, location, placed);
    locationNames.set(location, order.shippingAddress.locationName);
    for (const item of order.items)
      add(byCategory, input.categoryOf(item.productId) ?? 'Uncategorized', item.unitPriceCents * item.quantity);
  }
  // Every user of the organization is listed (with 0), so an approver sees each limit and what it leaves.
  const users: UserSpend[] = input.profiles.map((profile) => {
    const counter = input.currentMonthSpend?.get(profile.id);
    const limit = profile.monthlyLimitCents;
    return {
      internalUserId: profile.internalUserId,
      name: `${profile.firstName} ${profile.lastName}`,
      totalCents: byUser.get(profile.internalUserId) ?? 0,
      ...(profile.orderLimitCents === undefined ? {} : { orderLimitCents: profile.orderLimitCents }),
      ...(limit === undefined ? {} : { monthlyLimitCents: limit }),
      ...(limit === undefined || counter === undefined ? {} : { remainingCents: Math.max(limit - counter, 0) }),
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

/** One order line as the spend report's CSV lists it: the goods of a counted order. */
export interface SpendLine {
  readonly orderId: string;
  readonly createdAt: string;
  readonly userName: string;
  readonly locationName: string;
  readonly poNumber?: string;
  readonly product: string;
  readonly quantity: number;
  /** Unit price x quantity: what the line adds to its category, so the lines sum to the categories' total. */
  readonly amountCents: Cents;
}

/** Every line of the counted (not cancelled) orders, oldest order first, in the orders' own line order. */
export function spendLines(orders: readonly Order[], profiles: readonly Profile[]): SpendLine[] {
  const names = new Map(profiles.map((p) => [p.internalUserId, `${p.firstName} ${p.lastName}`]));
  return orders
    .filter((order) => order.status !== 'cancelled')
    .toSorted((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .flatMap((order) =>
      order.items.map((item) => ({
        orderId: order.id,
        createdAt: order.createdAt,
        // A user removed since is still named by what the order kept.
        userName: names.get(order.internalUserId) ?? order.userEmail,
        locationName: order.shippingAddress.locationName,
        ...(order.poNumber === undefined ? {} : { poNumber: order.poNumber }),
        product: item.name,
        quantity: item.quantity,
        amountCents: (item.unitPriceCents * item.quantity) as Cents,
      })),
    );
}

/** `YYYY-MM` of a real month, else undefined. */
export function parseSpendMonth(text: string): SpendMonth | undefined {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text);
  return match ? (text as SpendMonth) : undefined;
}

/** The month before `month`. */
export function previousMonth(month: SpendMonth): SpendMonth {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  const y = mm === 1 ? year - 1 : year;
  const m = mm === 1 ? 12 : mm - 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}` as SpendMonth;
}

/**
 * The UTC instants a month of `timeZone` spans, [start, end).
 */
export function monthBounds(month: SpendMonth, timeZone: string): { readonly start: Date; readonly end: Date } {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  const next = mm === 12 ? { y: year + 1, m: 1 } : { y: year, m: mm + 1 };
  return { start: zonedMidnight(year, mm, timeZone), end: zonedMidnight(next.y, next.m, timeZone) };
}

/** The first midnight of a month in `timeZone`, as an instant. */
const zonedMidnight = (year: number, month: number, timeZone: string): Date =>
  fromZonedTime(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01T00:00:00`, timeZone);
