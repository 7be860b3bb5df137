/**
 * The module's order search (docs/module.md, "Orders"): a text that an order's short id
 * starts with, or its PO number or a product's name contains (case-insensitive), within
 * a range of days in the organization's zone.
 */
// zod/mini: the embed Lambda parses the Orders page's query with this.
import { fromZonedTime } from 'date-fns-tz';
import * as z from 'zod/mini';
import { addCalendarDays } from '../calendar-days';
import { ValidationFailed } from '../errors';
import { optionalText, toValidationIssues } from '../validation';
import type { Order } from './order';

/** Orders one search reads at most, newest first: enough for a practice's months, bounded for any. */
export const MAX_ORDERS_SEARCHED = 500;

/** YYYY-MM-DD naming a real day (not 30 February, which Date would roll into March). */
const isCalendarDay = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
};

const Day = z.optional(
  z.pipe(
    optionalText(10),
    z.optional(
      z.string().check(
        z.refine(isCalendarDay, {
          message: 'must be a date such as 2026-11-01',
          params: { code: 'INVALID_FORMAT' },
        }),
      ),
    ),
  ),
);

const OrderSearchInput = z.object({ q: optionalText(64), from: Day, to: Day });

export interface OrderSearch {
  /** Lower case; absent means every order in the range. */
  readonly text?: string;
  /** The range as UTC instants: the start of `from` and the end of `to` in the zone. */
  readonly createdGte?: string;
  readonly createdLt?: string;
}

/** The page's query as a search in `timeZone`; ValidationFailed names a bad date or a range that ends before it starts. */
export function parseOrderSearch(query: Record<string, string | undefined>, timeZone: string): OrderSearch {
  const parsed = OrderSearchInput.safeParse({ q: query.q, from: query.from, to: query.to });
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error);
    throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
  }
  const { q, from, to } = parsed.data;
  if (from !== undefined && to !== undefined && to < from)
    throw new ValidationFailed([{ code: 'INVALID_RANGE', message: 'To must be on or after From', path: ['to'] }]);
  return {
    ...(q === undefined ? {} : { text: q.toLowerCase() }),
    ...(from === undefined ? {} : { createdGte: startOfDayIn(from, timeZone).toISOString() }),
    ...(to === undefined ? {} : { createdLt: startOfDayIn(addCalendarDays(to, 1), timeZone).toISOString() }),
  };
}

/** Whether the order's short id (its first characters) starts with the text, or its PO number or an item's name contains it. */
export function orderMatches(order: Order, text: string): boolean {
  return (
    order.id.startsWith(text) ||
    (order.poNumber?.toLowerCase().includes(text) ?? false) ||
    order.items.some((item) => item.name.toLowerCase().includes(text))
  );
}

/** Midnight starting `day` (YYYY-MM-DD) in `timeZone`, as an instant. */
const startOfDayIn = (day: string, timeZone: string): Date => fromZonedTime(`${day}T00:00:00`, timeZone);
