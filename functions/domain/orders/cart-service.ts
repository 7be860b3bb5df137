import * as z from 'zod/mini';
import type { CatalogRepository } from '../catalog/catalog-repository';
import { isProductId, type Product, type ProductId } from '../catalog/product';
import type { Clock } from '../clock';
import { ProductUnavailable, ValidationFailed } from '../errors';
import { type Cents, sumCents } from '../money';
import type { ProfileId } from '../organizations/organization';
import { toValidationIssues } from '../validation';
import {
  type Cart,
  type CartLine,
  type CartRepository,
  LineQuantity,
  MAX_CART_LINES,
  MAX_LINE_QUANTITY,
  QuantityChange,
} from './cart';
import { DEFAULT_PRICING, lineTotalCents, priceOrder, type PricingConfig, type UntaxedPricing } from './order-pricing';

export interface PricedCartLine {
  readonly product: Product;
  readonly quantity: number;
  readonly lineTotalCents: Cents;
}

/** A line whose product is no longer sold (inactive or gone): shown, never priced or ordered. */
export interface UnavailableCartLine {
  readonly productId: ProductId;
  readonly quantity: number;
  /** Present when the product still exists (inactive). */
  readonly product?: Product;
}

export interface PricedCart {
  readonly profileId: ProfileId;
  /** Available lines, in the order they were added, at current catalog prices. */
  readonly lines: readonly PricedCartLine[];
  readonly unavailable: readonly UnavailableCartLine[];
  /** The rejected or expired request the cart resubmits (`Edit and resubmit`). */
  readonly resubmits?: string;
  readonly subtotalCents: Cents;
  /** Goods and shipping before tax, as an order of the available lines would have them. */
  readonly untaxed: UntaxedPricing;
}

/** What `addLines` did: the products now in the cart, and those skipped because they are no longer sold. */
export interface AddedLines {
  readonly added: readonly ProductId[];
  readonly skipped: readonly string[];
}

export interface CartServiceOptions {
  readonly carts: CartRepository;
  readonly catalog: CatalogRepository;
  readonly clock: Clock;
  readonly pricing?: PricingConfig;
}

/**
 * A profile's cart: products that are on sale, 1-999 of each, at most 50 lines. The
 * limits are checked against the cart as read; two concurrent adds of new products to a
 * cart holding 49 lines could leave 51, which checkout accepts (orders have no line
 * limit), so no conditional write is spent on it.
 */
export class CartService {
  private readonly carts: CartRepository;
  private readonly catalog: CatalogRepository;
  private readonly clock: Clock;
  private readonly pricing: PricingConfig;

  constructor(options: CartServiceOptions) {
    this.carts = options.carts;
    this.catalog = options.catalog;
    this.clock = options.clock;
    this.pricing = options.pricing ?? DEFAULT_PRICING;
  }

  /**
   * Puts `quantity` (default 1) more of an active product in the cart:
   * 1. the product must exist and be active (ProductUnavailable);
   * 2. the line's new quantity must stay within 1-999 (ValidationFailed on `quantity`), checked
   *    again by the store's atomic add, so concurrent adds are all counted and never pass 999;
   * 3. a new line must not make more than 50 (ValidationFailed, TOO_MANY_ITEMS).
   */
  async add(profileId: ProfileId, productId: string, quantity: unknown = 1): Promise<void> {
    const added = parseQuantity(LineQuantity, quantity);
    const product = await this.activeProduct(productId);
    const cart = await this.carts.get(profileId);
    const line = lineOf(cart, product.productId);
    const total = (line?.quantity ?? 0) + added;
    if (total > MAX_LINE_QUANTITY) throw tooMany(total);
    if (!line) assertRoomForALine(cart);
    // The quantity is added by the store, not written back from the read: two adds at once make two more.
    const outcome = await this.carts.addToLine(
      profileId,
      product.productId,
      added,
      MAX_LINE_QUANTITY,
      this.clock.now(),
    );
    if (!outcome.added) throw tooMany(outcome.wouldBe);
  }

  /**
   * Puts several products in the cart at once (Buy again, the order guide):
   * 1. each quantity must be 1-999 (ValidationFailed);
   * 2. products no longer sold (inactive or gone) are skipped and returned as such;
   * 3. the rest are added to what the cart holds, each line capped at 999;
   * 4. new lines must not make more than 50 (ValidationFailed, TOO_MANY_ITEMS; nothing is added).
   */
  async addLines(
    profileId: ProfileId,
    lines: readonly { readonly productId: string; readonly quantity: unknown }[],
  ): Promise<AddedLines> {
    const wanted = lines.map((line) => ({
      productId: line.productId,
      quantity: parseQuantity(LineQuantity, line.quantity),
    }));
    const ids = wanted.map((line) => line.productId).filter(isProductId);
    const [products, cart] = await Promise.all([this.catalog.get(ids), this.carts.get(profileId)]);
    const totals = new Map<ProductId, number>();
    const skipped: string[] = [];
    for (const line of wanted) {
      const product = isProductId(line.productId) ? products.get(line.productId) : undefined;
      if (!product?.active) {
        if (!skipped.includes(line.productId)) skipped.push(line.productId);
        continue;
      }
      const before = totals.get(product.productId) ?? lineOf(cart, product.productId)?.quantity ?? 0;
      totals.set(product.productId, Math.min(before + line.quantity, MAX_LINE_QUANTITY));
    }
    const newLines = [...totals.keys()].filter((productId) => !lineOf(cart, productId)).length;
    if (newLines > 0 && cart.lines.length + newLines > MAX_CART_LINES) {
      throw new ValidationFailed(
        [{ code: 'TOO_MANY_ITEMS', message: `the cart must have at most ${MAX_CART_LINES} products`, path: ['items'] }],
        `The cart would hold more than ${MAX_CART_LINES} different products`,
      );
    }
    const at = this.clock.now();
    // A millisecond apart, so new lines list in the given order (the cart's order is `addedAt`).
    await Promise.all(
      [...totals].map(([productId, quantity], index) =>
        this.carts.setQuantity(profileId, productId, quantity, new Date(at.getTime() + index)),
      ),
    );
    return { added: [...totals.keys()], skipped };
  }

  /** Sets a line's quantity (0-999); 0 removes it. Setting a product not yet in the cart adds it, as `add` would. */
  async changeQuantity(profileId: ProfileId, productId: string, quantity: unknown): Promise<void> {
    const wanted = parseQuantity(QuantityChange, quantity);
    if (wanted === 0) return this.remove(profileId, productId);
    const product = await this.activeProduct(productId);
    const cart = await this.carts.get(profileId);
    if (!lineOf(cart, product.productId)) assertRoomForALine(cart);
    await this.carts.setQuantity(profileId, product.productId, wanted, this.clock.now());
  }

  /**
   * Removes a line, available or not; removing an absent one does nothing. Removing the last
   * line also ends a resubmission (`resubmits`): an emptied cart is no longer the request's edit.
   */
  async remove(profileId: ProfileId, productId: string): Promise<void> {
    if (!isProductId(productId)) return;
    await this.carts.remove(profileId, productId);
    const cart = await this.carts.get(profileId);
    if (cart.lines.length === 0 && cart.resubmits !== undefined) await this.carts.clear(profileId);
  }

  async clear(profileId: ProfileId): Promise<void> {
    await this.carts.clear(profileId);
  }

  /** The cart at current catalog prices, before tax (checkout adds each location's: `OrderService.quoteEach`). */
  async view(profileId: ProfileId): Promise<PricedCart> {
    const cart = await this.carts.get(profileId);
    return priceCart(cart, await this.catalog.get(cart.lines.map((line) => line.productId)), this.pricing);
  }

  private async activeProduct(productId: string): Promise<Product> {
    const product = isProductId(productId) ? (await this.catalog.get([productId])).get(productId) : undefined;
    if (!product?.active) throw new ProductUnavailable([productId]);
    return product;
  }
}

/** Prices a cart against the given products (current catalog), purely; checkout prices the same way. */
export function priceCart(
  cart: Cart,
  products: ReadonlyMap<ProductId, Product>,
  config: PricingConfig = DEFAULT_PRICING,
): PricedCart {
  const lines: PricedCartLine[] = [];
  const unavailable: UnavailableCartLine[] = [];
  for (const line of [...cart.lines].sort((a, b) => a.addedAt.localeCompare(b.addedAt))) {
    const product = products.get(line.productId);
    if (product?.active) {
      lines.push({
        product,
        quantity: line.quantity,
        lineTotalCents: lineTotalCents({ unitPriceCents: product.priceCents, quantity: line.quantity }),
      });
    } else {
      unavailable.push({ productId: line.productId, quantity: line.quantity, ...(product ? { product } : {}) });
    }
  }
  const subtotalCents = sumCents(lines.map((line) => line.lineTotalCents));
  const untaxed = priceOrder(
    lines.map((line) => ({ unitPriceCents: line.product.priceCents, quantity: line.quantity })),
    config,
  );
  return {
    profileId: cart.profileId,
    lines,
    unavailable,
    ...(cart.resubmits === undefined ? {} : { resubmits: cart.resubmits }),
    subtotalCents,
    untaxed,
  };
}

const lineOf = (cart: Cart, productId: ProductId): CartLine | undefined =>
  cart.lines.find((line) => line.productId === productId);

function assertRoomForALine(cart: Cart): void {
  if (cart.lines.length >= MAX_CART_LINES) {
    throw new ValidationFailed(
      [{ code: 'TOO_MANY_ITEMS', message: `the cart must have at most ${MAX_CART_LINES} products`, path: ['items'] }],
      `The cart already holds ${MAX_CART_LINES} different products`,
    );
  }
}

function parseQuantity(schema: typeof LineQuantity | typeof QuantityChange, quantity: unknown): number {
  const parsed = z.object({ quantity: schema }).safeParse({ quantity });
  if (parsed.success) return parsed.data.quantity;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
}

const tooMany = (total: number) =>
  quantityProblem('TOO_BIG', `quantity would be ${total} in the cart; at most ${MAX_LINE_QUANTITY} of one product`);

const quantityProblem = (code: string, message: string) =>
  new ValidationFailed([{ code, message, path: ['quantity'] }], message);
