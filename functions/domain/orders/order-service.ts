import { randomUUID } from 'node:crypto';
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { Clock } from '../clock';
import { type Correlation, correlate, correlateAction, currentCorrelation } from '../correlation';
import {
  ApprovalRequired,
  ConcurrentModification,
  Forbidden,
  MonthlyLimitReached,
  OrderNotFound,
  SalesTaxUnavailable,
  ValidationFailed,
} from '../errors';
import type { OrderEventMessage } from '../events/order-event-message';
import { METRIC, type Metrics, noMetrics } from '../metrics';
import type { Organization, OrganizationAggregate, Profile } from '../organizations/organization';
import type { CartRepository } from './cart';
import {
  type LimitReason,
  type MonthSpend,
  givesBack,
  monthSpendCredit,
  organizationTimeZone,
  limitPassedBy,
  placementMonthOf,
  type SpendMonth,
  spendMonthOf,
} from '../spending/monthly-spend';
import type { OrganizationRepository } from '../organizations/organization-repository';
import { newOrder, type Order, type OrderId } from './order';
import { latestOrderEvent, orderEventFor } from './order-event';
import { applyTransition } from './order-lifecycle';
import { DEFAULT_PRICING, type PricingConfig } from './order-pricing';
import { type OrderQuote, type PlaceOrderInput, quoteEach, quoteOrder } from './order-quote';
import type { SalesTaxQuotes } from '../tax/sales-tax-quotes';
import {
  DEFAULT_ORDER_PAGE_SIZE,
  MAX_ORDER_PAGE_SIZE,
  type OrderPage,
  type OrderPageRequest,
  type OrderRepository,
} from './order-repository';
import { assertOrderInScope, type OrderScope } from './order-scope';
import { MAX_ORDERS_SEARCHED, orderMatches } from './order-search';
import { parseTransition } from './transition-input';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OrderServiceOptions {
  readonly orders: OrderRepository;
  readonly carts: CartRepository;
  readonly catalog: CatalogRepository;
  readonly clock: Clock;
  readonly pricing?: PricingConfig;
  /** Stripe Tax, with its calculations remembered beside the cart; absent in a function that never quotes (approval expiry). */
  readonly salesTax?: SalesTaxQuotes;
  /** Order ids; UUIDs (webhooks' `order_id` must be one). */
  readonly newId?: () => string;
  /** Tries of a change that keeps losing the race for the order's sequence; default 3. */
  readonly maxAttempts?: number;
  /** Orders placed and moved. */
  readonly metrics?: Metrics;
  /** The ids of the request under way; its `requestId` goes with each event (default: the current correlation scope). */
  readonly correlation?: () => Correlation;
  /**
   * Where the zone of an order placed before `spendMonth` was recorded is read, so its cancellation or refund gives
   * back to the month it counted in; without it (a function that never cancels nor refunds) such orders give nothing back.
   */
  readonly organizations?: Pick<OrganizationRepository, 'getOrganization'>;
}

/** Placing orders from carts, and every later change of an order, each with its webhook event. */
export class OrderService {
  private readonly orders: OrderRepository;
  private readonly carts: CartRepository;
  private readonly catalog: CatalogRepository;
  private readonly clock: Clock;
  private readonly pricing: PricingConfig;
  private readonly salesTax: SalesTaxQuotes | undefined;
  private readonly newId: () => string;
  private readonly maxAttempts: number;
  private readonly metrics: Metrics;
  private readonly correlation: () => Correlation;
  private readonly organizations: Pick<OrganizationRepository, 'getOrganization'> | undefined;

  constructor(options: OrderServiceOptions) {
    this.orders = options.orders;
    this.carts = options.carts;
    this.catalog = options.catalog;
    this.clock = options.clock;
    this.pricing = options.pricing ?? DEFAULT_PRICING;
    this.salesTax = options.salesTax;
    this.newId = options.newId ?? randomUUID;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.metrics = options.metrics ?? noMetrics;
    this.correlation = options.correlation ?? currentCorrelation;
    this.organizations = options.organizations;
  }

  /**
   * The event of a change with the ids that follow it to every delivery attempt: the
   * request that made it, the order and its organization (never in the partner's
   * payload). The request's later log lines carry the order's ids too.
   */
  private correlated(order: Order, event: OrderEventMessage): OrderEventMessage {
    const { requestId } = this.correlation();
    correlate({
      partnerId: order.partnerId,
      organizationId: order.organizationId,
      orderId: order.id,
      eventId: event.eventId,
    });
    return { ...event, ...(requestId ? { requestId } : {}), orderId: order.id, organizationId: order.organizationId };
  }

  /**
   * What an order from the profile's cart (or the given items) would be, without placing it:
   * 1. the profile and organization must be the partner's, and the profile the organization's (Forbidden);
   * 2. the shipping location: the one asked for, or the organization's default; it must be active (ShippingLocationUnavailable);
   * 3. the cart must have lines (EmptyCart), all of products still on sale (ProductUnavailable names the others);
   * 4. the items, address and prices are snapshotted, and taxed by Stripe Tax for the location's address (the
   *    calculation checkout made for the same cart and address is reused; SalesTaxUnavailable when Stripe Tax
   *    cannot answer, and nothing is placed).
   * Placing an order and submitting one for approval both start here, so an approved
   * request is exactly the order its requester would have placed.
   */
  async quote(input: PlaceOrderInput): Promise<OrderQuote> {
    return quoteOrder(this.quoteDependencies(), input);
  }

  /** `quote` for each of the locations at once (checkout's choices), from one read of the cart. */
  async quoteEach(
    input: Omit<PlaceOrderInput, 'shippingLocationId'>,
    locationIds: readonly string[],
  ): Promise<OrderQuote[]> {
    return quoteEach(this.quoteDependencies(), input, locationIds);
  }

  /**
   * The quote is now an order's (or a request's): its Stripe Tax calculation is not reused
   * for another. The order exists whatever happens here; a calculation not forgotten is
   * swept with the cart's items by TTL within a day.
   */
  async quoteUsed(profile: Profile, quote: OrderQuote): Promise<void> {
    await this.salesTax?.used(profile.id, quote.salesTaxKey).catch(() => undefined);
  }

  private quoteDependencies() {
    if (!this.salesTax) throw new SalesTaxUnavailable('this function was composed without a sales-tax provider');
    return { carts: this.carts, catalog: this.catalog, pricing: this.pricing, salesTax: this.salesTax };
  }

  /**
   * Places an order from the profile's cart (or the given items):
   * 1. it is quoted (`quote`: owner, location, cart, products, snapshot and prices);
   * 2. it must not total more than the profile's order limit, nor take the profile's
   *    placed total for the month above its monthly limit (ApprovalRequired with the
   *    reason: it is submitted for approval instead), from the cart (the module's
   *    checkout) or of given items (the sandbox API) alike, so the sandbox behaves as the
   *    module does;
   * 3. the order is written with its order.created event, the cart lines it was priced
   *    from are removed and its total is added to the month's, in one transaction (a cart
   *    changed meanwhile, or ordered by a second click, places nothing:
   *    ConcurrentModification; a month another order filled meanwhile places nothing:
   *    ApprovalRequired), so parallel orders never pass the monthly limit together.
   */
  async placeOrder(input: PlaceOrderInput): Promise<Order> {
    const { partner, profile, organization } = input;
    correlateAction('checkout', profile);
    const quote = await this.quote(input);
    const now = this.clock.now();
    const month = spendMonthOf(now, organizationTimeZone(organization));
    const totalCents = quote.pricing.totalCents;
    const monthly = profile.monthlyLimitCents;
    // Alone above a limit: no month total could make room, so nothing is tried; the counter's condition weighs the rest.
    const passed = limitPassedBy(profile, 0, totalCents);
    if (passed === 'order_limit') throw new ApprovalRequired(totalCents, profile.orderLimitCents!, 'order_limit');
    if (passed === 'monthly_limit')
      throw new ApprovalRequired(
        totalCents,
        monthly!,
        'monthly_limit',
        await this.orders.monthSpend(profile.id, month),
      );
    const order = newOrder({
      id: this.newId() as OrderId,
      partnerId: partner.id,
      organization: organization.organization,
      profile,
      ...(input.references ? { references: input.references } : {}),
      items: quote.items,
      shippingAddress: quote.shippingAddress,
      pricing: quote.pricing,
      at: now.toISOString(),
      spendMonth: month,
    });
    try {
      await this.orders.create(
        order,
        this.correlated(order, latestOrderEvent(order)),
        input.items ? undefined : quote.cart,
        {
          profileId: profile.id,
          month,
          amountCents: totalCents,
          ...(monthly === undefined ? {} : { limitCents: monthly }),
          enforced: true,
        },
      );
    } catch (error) {
      if (!(error instanceof MonthlyLimitReached) || monthly === undefined) throw error;
      throw new ApprovalRequired(totalCents, monthly, 'monthly_limit', await this.orders.monthSpend(profile.id, month));
    }
    this.metrics.count(METRIC.ordersPlaced);
    await this.quoteUsed(profile, quote);
    return order;
  }

  /**
   * Where the profile stands this month (the organization's zone): its placed orders'
   * total and its monthly limit, if it has one. Checkout shows it.
   */
  async monthSpend(
    profile: Profile,
    organization: Pick<OrganizationAggregate, 'organization' | 'locations'>,
  ): Promise<MonthSpend> {
    const month = spendMonthOf(this.clock.now(), organizationTimeZone(organization));
    const spentCents = await this.orders.monthSpend(profile.id, month);
    return {
      month,
      spentCents,
      ...(profile.monthlyLimitCents === undefined ? {} : { limitCents: profile.monthlyLimitCents }),
    };
  }

  /**
   * Which limit, if any, an order of `totalCents` by the profile would pass now: the
   * order limit first, then the monthly one (with what the month holds already).
   */
  async limitPassed(
    profile: Profile,
    organization: Pick<OrganizationAggregate, 'organization' | 'locations'>,
    totalCents: number,
  ): Promise<LimitReason | undefined> {
    // The month is read only when the order limit leaves the monthly one to weigh.
    if (limitPassedBy(profile, 0, totalCents) === 'order_limit') return 'order_limit';
    if (profile.monthlyLimitCents === undefined) return undefined;
    const { spentCents } = await this.monthSpend(profile, organization);
    return limitPassedBy(profile, spentCents, totalCents);
  }

  /**
   * Changes an order (confirm, ship, deliver, cancel, refund):
   * 1. the action and its input are validated (ValidationFailed);
   * 2. the order must exist and be in the caller's scope (OrderNotFound, Forbidden);
   * 3. its status must allow the action (InvalidOrderTransition);
   * 4. the changed order is written with its event and, for a cancellation or refund, what
   *    it gives back to its user's month (`monthSpendCredit`), if no one changed it since it
   *    was read; otherwise it is read again and the change re-applied, up to `maxAttempts` times.
   */
  async transition(orderId: string, action: string, input: unknown, scope: OrderScope): Promise<Order> {
    correlateAction(action);
    const change = parseTransition(action, input);
    for (let attempt = 1; ; attempt += 1) {
      const order = await this.get(orderId, scope);
      const applied = applyTransition(order, change, this.clock.now());
      const month = givesBack(order, applied.order) ? await this.spendMonthOf(order) : undefined;
      const credit = month === undefined ? undefined : monthSpendCredit(order, applied.order, month);
      try {
        await this.orders.transition({
          order: applied.order,
          expectedSequence: order.sequence,
          event: this.correlated(applied.order, orderEventFor(applied.order, applied.change)),
          ...(credit ? { credit } : {}),
        });
        this.metrics.count(METRIC.ordersMoved, { status: applied.change.status });
        return applied.order;
      } catch (error) {
        if (!(error instanceof ConcurrentModification) || attempt >= this.maxAttempts) throw error;
      }
    }
  }

  /** The month the order counts in: recorded on it, or for an order placed before it was, its placement's month. */
  private async spendMonthOf(order: Order): Promise<SpendMonth | undefined> {
    if (order.spendMonth !== undefined) return order.spendMonth;
    const aggregate = await this.organizations?.getOrganization(order.partnerId, order.internalOrgId);
    return aggregate ? placementMonthOf(order, aggregate) : undefined;
  }

  /** One order, if it is in the caller's scope (OrderNotFound, Forbidden). */
  async get(orderId: string, scope: OrderScope): Promise<Order> {
    // Anything but a UUID names no order and is never looked up.
    const order = UUID.test(orderId) ? await this.orders.get(orderId as OrderId) : undefined;
    if (!order) throw new OrderNotFound(orderId);
    assertOrderInScope(order, scope);
    return order;
  }

  /** An organization's orders, newest first, a page at a time. */
  async listForOrganization(
    organization: Organization,
    scope: OrderScope,
    page: OrderPageRequest = {},
  ): Promise<OrderPage> {
    if (organization.partnerId !== scope.partnerId)
      throw new Forbidden(`Organization ${organization.id} belongs to another partner`);
    if (scope.organizationId !== undefined && scope.organizationId !== organization.id) {
      throw new Forbidden(`Organization ${organization.id} is not the caller's`);
    }
    const limit = page.limit ?? DEFAULT_ORDER_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ORDER_PAGE_SIZE) {
      throw new ValidationFailed([
        {
          code: limit < 1 ? 'TOO_SMALL' : 'TOO_BIG',
          message: `limit must be an integer from 1 to ${MAX_ORDER_PAGE_SIZE}`,
          path: ['limit'],
        },
      ]);
    }
    return this.orders.listByOrganization(organization.id, { ...page, limit });
  }

  /**
   * The organization's orders in the page's range and status that match `text`
   * (`orderMatches`), newest first, reading at most MAX_ORDERS_SEARCHED orders:
   * `complete` is false when the read stopped there with older orders unread.
   */
  async searchOrganization(
    organization: Organization,
    scope: OrderScope,
    text: string,
    page: Pick<OrderPageRequest, 'status' | 'createdGte' | 'createdLt'> = {},
  ): Promise<{ readonly orders: Order[]; readonly complete: boolean }> {
    const found: Order[] = [];
    let read = 0;
    let cursor: string | undefined;
    do {
      const next = await this.listForOrganization(organization, scope, {
        ...page,
        limit: MAX_ORDER_PAGE_SIZE,
        ...(cursor === undefined ? {} : { cursor }),
      });
      read += next.orders.length;
      found.push(...next.orders.filter((order) => orderMatches(order, text)));
      cursor = next.nextCursor;
    } while (cursor !== undefined && read < MAX_ORDERS_SEARCHED);
    return { orders: found, complete: cursor === undefined };
  }
}
