import type { RememberedSalesTax, SalesTaxMemory } from '../../functions/domain/tax/sales-tax-quotes';
import { inCatalogOrder, matchesCatalogFilter } from '../../functions/domain/catalog/catalog-listing';
import type { CatalogFilter, CatalogRepository } from '../../functions/domain/catalog/catalog-repository';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import { ConcurrentModification, MonthlyLimitReached, ValidationFailed } from '../../functions/domain/errors';
import {
  type MonthCounter,
  type MonthSpendCharge,
  type MonthSpendCredit,
  passesMonthlyLimit,
  type SpendMonth,
} from '../../functions/domain/spending/monthly-spend';
import type { Cart, CartLine, CartRepository, LineAddition } from '../../functions/domain/orders/cart';
import type { Order, OrderId } from '../../functions/domain/orders/order';
import {
  DEFAULT_ORDER_PAGE_SIZE,
  type OrderPage,
  type OrderPageRequest,
  type OrderRepository,
} from '../../functions/domain/orders/order-repository';
import type { OrganizationId, ProfileId } from '../../functions/domain/organizations/organization';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';

/** Stored values are copies, as a database's are: a caller mutating what it got changes nothing stored. */
const copy = <T>(value: T): T => structuredClone(value);

export class InMemoryCatalogRepository implements CatalogRepository {
  readonly products = new Map<ProductId, Product>();

  async upsertMany(products: readonly Product[]): Promise<void> {
    for (const product of products) this.products.set(product.productId, copy(product));
  }

  async listAll(): Promise<Product[]> {
    return inCatalogOrder([...this.products.values()]).map(copy);
  }

  async listActive(filter?: CatalogFilter): Promise<Product[]> {
    return inCatalogOrder(
      [...this.products.values()].filter((product) => product.active && matchesCatalogFilter(product, filter)),
    ).map(copy);
  }

  async get(productIds: readonly ProductId[]): Promise<Map<ProductId, Product>> {
    const found = new Map<ProductId, Product>();
    for (const id of productIds) {
      const product = this.products.get(id);
      if (product) found.set(id, copy(product));
    }
    return found;
  }
}

export class InMemoryCartRepository implements CartRepository, SalesTaxMemory {
  private readonly carts = new Map<ProfileId, Map<ProductId, CartLine>>();
  readonly salesTax = new Map<string, RememberedSalesTax>();

  async rememberedSalesTax(profileId: ProfileId, key: string): Promise<RememberedSalesTax | undefined> {
    return this.salesTax.get(`${profileId}#${key}`);
  }

  async forgetSalesTax(profileId: ProfileId, key: string): Promise<void> {
    this.salesTax.delete(`${profileId}#${key}`);
  }

  async rememberSalesTax(profileId: ProfileId, key: string, remembered: RememberedSalesTax): Promise<void> {
    this.salesTax.set(`${profileId}#${key}`, remembered);
  }

  async get(profileId: ProfileId): Promise<Cart> {
    return { profileId, lines: [...(this.carts.get(profileId)?.values() ?? [])].map(copy) };
  }

  async setQuantity(profileId: ProfileId, productId: ProductId, quantity: number, at: Date): Promise<void> {
    const lines = this.carts.get(profileId) ?? new Map<ProductId, CartLine>();
    const addedAt = lines.get(productId)?.addedAt ?? at.toISOString();
    lines.set(productId, { productId, quantity, addedAt });
    this.carts.set(profileId, lines);
  }

  async addToLine(
    profileId: ProfileId,
    productId: ProductId,
    added: number,
    max: number,
    at: Date,
  ): Promise<LineAddition> {
    const quantity = (this.carts.get(profileId)?.get(productId)?.quantity ?? 0) + added;
    if (quantity > max) return { added: false, wouldBe: quantity };
    await this.setQuantity(profileId, productId, quantity, at);
    return { added: true, quantity };
  }

  async remove(profileId: ProfileId, productId: ProductId): Promise<void> {
    this.carts.get(profileId)?.delete(productId);
  }

  async clear(profileId: ProfileId): Promise<void> {
    this.carts.delete(profileId);
  }

  /** Whether every line of `cart` is stored with the same quantity. */
  holds(cart: Cart): boolean {
    const lines = this.carts.get(cart.profileId);
    return cart.lines.every((line) => lines?.get(line.productId)?.quantity === line.quantity);
  }

  removeLines(cart: Cart): void {
    for (const line of cart.lines) this.carts.get(cart.profileId)?.delete(line.productId);
  }
}

/**
 * Orders and their outbox in memory, with the port's guarantees: a write stores the
 * order and its event together or neither, and a transition applies only to the
 * sequence it was computed from.
 */
export class InMemoryOrderRepository implements OrderRepository {
  readonly orders = new Map<OrderId, Order>();
  /** The outbox: every event written with its change, in order. */
  readonly events: OrderEventMessage[] = [];
  /** Runs before a transition is checked, e.g. to let a competing writer in. */
  beforeTransition?: () => Promise<void> | void;

  /** The carts an order consumes lines of, as the DynamoDB adapter's transaction does. */
  constructor(private readonly carts?: InMemoryCartRepository) {}

  /** Month totals by `profileId#month`, as the DynamoDB adapter keeps them. */
  readonly monthTotals = new Map<string, number>();
  /** The monthly limit recorded with each month's last order, by `profileId#month`. */
  readonly monthLimits = new Map<string, number | null>();

  async create(order: Order, event: OrderEventMessage, consumedCart?: Cart, spend?: MonthSpendCharge): Promise<void> {
    if (this.orders.has(order.id)) throw new ConcurrentModification(`Order ${order.id} already exists`);
    // Checked and applied with no await in between: one transaction.
    if (consumedCart && this.carts && !this.carts.holds(consumedCart))
      throw new ConcurrentModification('The cart changed meanwhile');
    if (spend) {
      const key = `${spend.profileId}#${spend.month}`;
      const total = this.monthTotals.get(key) ?? 0;
      if (
        spend.enforced &&
        spend.limitCents !== undefined &&
        passesMonthlyLimit(total, spend.amountCents, spend.limitCents)
      )
        throw new MonthlyLimitReached('The month would pass the monthly limit');
      this.monthTotals.set(key, total + spend.amountCents);
      this.monthLimits.set(key, spend.limitCents ?? null);
    }
    this.orders.set(order.id, copy(order));
    this.events.push(copy(event));
    if (consumedCart) this.carts?.removeLines(consumedCart);
  }

  async transition(input: {
    order: Order;
    expectedSequence: number;
    event: OrderEventMessage;
    credit?: MonthSpendCredit;
  }): Promise<void> {
    await this.beforeTransition?.();
    const stored = this.orders.get(input.order.id);
    if (!stored || stored.sequence !== input.expectedSequence) {
      throw new ConcurrentModification(`Order ${input.order.id} changed since it was read`);
    }
    this.orders.set(input.order.id, copy(input.order));
    this.events.push(copy(input.event));
    if (input.credit) {
      const key = `${input.credit.profileId}#${input.credit.month}`;
      this.monthTotals.set(key, (this.monthTotals.get(key) ?? 0) - input.credit.amountCents);
    }
  }

  async monthSpend(profileId: ProfileId, month: SpendMonth): Promise<number> {
    return this.monthTotals.get(`${profileId}#${month}`) ?? 0;
  }

  async monthCounters(profileIds: readonly ProfileId[], month: SpendMonth): Promise<Map<ProfileId, MonthCounter>> {
    const counters = new Map<ProfileId, MonthCounter>();
    for (const id of profileIds) {
      const key = `${id}#${month}`;
      const spentCents = this.monthTotals.get(key);
      const limitCents = this.monthLimits.get(key);
      if (spentCents !== undefined)
        counters.set(id, { spentCents, ...(limitCents === undefined ? {} : { limitCents }) });
    }
    return counters;
  }

  async get(orderId: OrderId): Promise<Order | undefined> {
    const order = this.orders.get(orderId);
    return order && copy(order);
  }

  async listCreatedBetween(
    organizationId: OrganizationId,
    range: { readonly from: string; readonly to: string; readonly maxOrders: number },
  ): Promise<{ readonly orders: Order[]; readonly complete: boolean }> {
    const inRange = [...this.orders.values()]
      .filter((o) => o.organizationId === organizationId && o.createdAt >= range.from && o.createdAt < range.to)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return { orders: inRange.slice(0, range.maxOrders), complete: inRange.length <= range.maxOrders };
  }

  async listByOrganization(organizationId: OrganizationId, page: OrderPageRequest = {}): Promise<OrderPage> {
    const limit = page.limit ?? DEFAULT_ORDER_PAGE_SIZE;
    const newestFirst = [...this.orders.values()]
      .filter(
        (order) =>
          order.organizationId === organizationId &&
          (page.status === undefined || order.status === page.status) &&
          (page.poNumber === undefined || order.poNumber === page.poNumber) &&
          (page.internalUserId === undefined || order.internalUserId === page.internalUserId) &&
          (page.createdGte === undefined || order.createdAt >= page.createdGte) &&
          (page.createdLt === undefined || order.createdAt < page.createdLt),
      )
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    let start = 0;
    if (page.startingAfter !== undefined) {
      const index = newestFirst.findIndex((order) => order.id === page.startingAfter);
      if (index === -1) {
        throw new ValidationFailed([
          {
            code: 'INVALID_CURSOR',
            message: 'starting_after is not an order of this organization',
            path: ['starting_after'],
          },
        ]);
      }
      start = index + 1;
    } else if (page.cursor !== undefined) {
      const after = decodeCursor(page.cursor, organizationId);
      start = newestFirst.findIndex(
        (order) => order.createdAt < after.createdAt || (order.createdAt === after.createdAt && order.id < after.id),
      );
      if (start === -1) start = newestFirst.length;
    }
    const orders = newestFirst.slice(start, start + limit);
    const last = orders.at(-1);
    const more = start + limit < newestFirst.length;
    return { orders: orders.map(copy), ...(more && last ? { nextCursor: encodeCursor(last, organizationId) } : {}) };
  }
}

const encodeCursor = (order: Order, organizationId: OrganizationId): string =>
  Buffer.from(JSON.stringify({ o: organizationId, c: order.createdAt, i: order.id })).toString('base64url');

function decodeCursor(cursor: string, organizationId: OrganizationId): { createdAt: string; id: string } {
  try {
    const { o, c, i } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      o: unknown;
      c: unknown;
      i: unknown;
    };
    if (o === organizationId && typeof c === 'string' && typeof i === 'string') return { createdAt: c, id: i };
  } catch {
    // falls through to the refusal
  }
  throw new ValidationFailed([
    { code: 'INVALID_FORMAT', message: 'cursor is not one this listing gave', path: ['cursor'] },
  ]);
}
