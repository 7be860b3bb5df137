import type { OrganizationId, ProfileId } from '../organizations/organization';
import type { OrderEventMessage } from '../events/order-event-message';
import type { Cart } from './cart';
import type { MonthCounter, MonthSpendCharge, MonthSpendCredit, SpendMonth } from '../spending/monthly-spend';
import type { Order, OrderId, OrderStatus } from './order';

export const DEFAULT_ORDER_PAGE_SIZE = 20;
export const MAX_ORDER_PAGE_SIZE = 100;

export interface OrderPageRequest {
  /** 1-100; default 20. */
  readonly limit?: number;
  /** `nextCursor` of the previous page, as given. */
  readonly cursor?: string;
  /**
   * Stripe-style: the page starts after this order of the same organization (the last
   * one of the previous page). An unknown order, or another organization's, throws
   * ValidationFailed on `starting_after`.
   */
  readonly startingAfter?: string;
  /** Only orders in this status (the module's Status filter). */
  readonly status?: OrderStatus;
  /** Only orders with exactly this PO number. */
  readonly poNumber?: string;
  /** Only orders placed by (or, approved, requested by) this user: the partner's id of the user. */
  readonly internalUserId?: string;
  /** Only orders created at or after this instant (ISO 8601, UTC, as `createdAt` is stored). */
  readonly createdGte?: string;
  /** Only orders created before this instant (ISO 8601, UTC). */
  readonly createdLt?: string;
}

/**
 * Orders a filtered page reads at most (a filter is applied after the read): past it, the
 * page holds what was found and `nextCursor` continues the read, so one request costs a
 * bounded read however few orders match.
 */
export const MAX_ORDERS_READ_PER_PAGE = 1000;

export interface OrderPage {
  readonly orders: Order[];
  /** Present when more orders follow: pass it as the next request's `cursor`. Opaque. */
  readonly nextCursor?: string;
}

/** What a search of order ids by prefix found, and whether it read every order it was to look at. */
export interface OrderIdSearchResult {
  readonly ids: readonly OrderId[];
  /** False when the search stopped at its bound before reading every order in its scope. */
  readonly complete: boolean;
  /** Orders read (and paid for), matching or not. */
  readonly itemsRead: number;
}

/**
 * The operator CLI's lookup of the short order id the module shows (its first characters).
 * Ids are not keyed by prefix, so this reads orders: those of the given organizations, or
 * the whole stage's, and stops after `maxItemsRead` so a large table costs a bounded read.
 */
export interface OrderIdSearch {
  idsStartingWith(
    prefix: string,
    scope: { readonly organizationIds?: readonly OrganizationId[]; readonly maxItemsRead: number },
  ): Promise<OrderIdSearchResult>;
}

/**
 * Storage port for orders. Every write also stores the change's webhook event in the
 * same transaction (the outbox, docs/architecture.md, "Order lifecycle"), so an order never changes
 * without its event nor an event exists for a change that did not happen.
 */
export interface OrderRepository {
  /**
   * Writes a new order (sequence 1) and its order.created event and, when the order was
   * placed from a cart, removes exactly the cart lines it was priced from, all in one
   * transaction. Throws ConcurrentModification, writing nothing, if the id is taken or any of
   * those lines changed meanwhile (so a double submit places one order). `spend` adds the
   * order to its user's month total in the same transaction; when `enforced`, a total
   * that would pass its `limitCents` writes nothing and throws MonthlyLimitReached.
   */
  create(order: Order, event: OrderEventMessage, consumedCart?: Cart, spend?: MonthSpendCharge): Promise<void>;
  /** What the profile's live orders total in the month, in cents (0 before the first). */
  monthSpend(profileId: ProfileId, month: SpendMonth): Promise<number>;
  /** The month counters of these profiles (absent: no order of theirs ever counted in the month). */
  monthCounters(profileIds: readonly ProfileId[], month: SpendMonth): Promise<Map<ProfileId, MonthCounter>>;
  /**
   * Replaces the stored order with `order` and writes its event, only if the stored
   * order's sequence is still `expectedSequence` (the one the change was applied to);
   * otherwise throws ConcurrentModification and writes nothing. `credit` (a cancellation
   * or refund) is taken off its month's counter in the same transaction.
   */
  transition(input: {
    readonly order: Order;
    readonly expectedSequence: number;
    readonly event: OrderEventMessage;
    readonly credit?: MonthSpendCredit;
  }): Promise<void>;
  get(orderId: OrderId): Promise<Order | undefined>;
  /**
   * The organization's orders, newest first (createdAt, then id, descending). A cursor
   * that is malformed or from another organization throws ValidationFailed on `cursor`.
   */
  listByOrganization(organizationId: OrganizationId, page?: OrderPageRequest): Promise<OrderPage>;
  /**
   * The organization's orders created in [from, to) (ISO 8601 UTC), at most `maxOrders`
   * (one index range, read in pages): `complete` is false when more were there.
   */
  listCreatedBetween(
    organizationId: OrganizationId,
    range: { readonly from: string; readonly to: string; readonly maxOrders: number },
  ): Promise<{ readonly orders: Order[]; readonly complete: boolean }>;
}
