/**
 * The order guide: the supplies an organization orders regularly, each with its usual
 * quantity, shared by every user of the organization. Any of them adds a product (from
 * its catalog card), changes a usual quantity or removes a line, and puts all or some
 * lines in their own cart in one action.
 *
 * Each line is its own stored item with a version: adding is an atomic upsert (two
 * people adding at once both land), and a change or removal names the version it was
 * made on and is refused (OrderGuideChanged) if the line moved on meanwhile, so one
 * person's edit never silently overwrites another's.
 */
import * as z from 'zod/mini';
import type { CatalogRepository } from '../catalog/catalog-repository';
import { isProductId, type Product, type ProductId } from '../catalog/product';
import type { Clock } from '../clock';
import { ProductUnavailable, ValidationFailed } from '../errors';
import type { OrganizationId, ProfileId } from '../organizations/organization';
import { requiredField, toValidationIssues } from '../validation';
import { LineQuantity } from './cart';
import type { AddedLines, CartService } from './cart-service';

/** Lines in one organization's guide. */
const MAX_ORDER_GUIDE_LINES = 100;

export interface OrderGuideLine {
  readonly productId: ProductId;
  /** The usual quantity, 1-999. */
  readonly quantity: number;
  /** 1 when added, +1 per change: what a change or removal must name. */
  readonly version: number;
  readonly addedAt: string;
}

/** Storage port for order guides, one per organization. */
export interface OrderGuideRepository {
  /** The guide's lines, in the order they were added. */
  get(organizationId: OrganizationId): Promise<OrderGuideLine[]>;
  /** Adds the line, or sets the usual quantity of the line already there (a new version either way); atomic. */
  upsert(organizationId: OrganizationId, productId: ProductId, quantity: number, at: Date): Promise<void>;
  /** Sets the usual quantity if the line is still at `expectedVersion`; otherwise OrderGuideChanged, nothing written. */
  setQuantity(
    organizationId: OrganizationId,
    productId: ProductId,
    quantity: number,
    expectedVersion: number,
    at: Date,
  ): Promise<void>;
  /** Removes the line if it is still at `expectedVersion` (already gone: nothing happens); otherwise OrderGuideChanged. */
  remove(organizationId: OrganizationId, productId: ProductId, expectedVersion: number): Promise<void>;
}

/** A guide line with its product as the catalog has it now (absent when the product is gone). */
export interface OrderGuideEntry {
  readonly line: OrderGuideLine;
  readonly product?: Product;
}

const Version = z.number({ error: requiredField }).check(z.int(), z.gte(1));

export class OrderGuideService {
  constructor(
    private readonly guides: OrderGuideRepository,
    private readonly catalog: Pick<CatalogRepository, 'get'>,
    private readonly cartService: Pick<CartService, 'addLines'>,
    private readonly clock: Clock,
  ) {}

  async view(organizationId: OrganizationId): Promise<OrderGuideEntry[]> {
    const lines = await this.guides.get(organizationId);
    const products = lines.length
      ? await this.catalog.get(lines.map((line) => line.productId))
      : new Map<ProductId, Product>();
    return lines.map((line) => {
      const product = products.get(line.productId);
      return product ? { line, product } : { line };
    });
  }

  /**
   * 1. the usual quantity must be 1-999 (ValidationFailed);
   * 2. the product must be on sale (ProductUnavailable);
   * 3. a new line must not make more than 100 (ValidationFailed, TOO_MANY_ITEMS);
   * 4. the line is added, or its usual quantity set, atomically.
   */
  async add(organizationId: OrganizationId, productId: string, quantity: unknown): Promise<Product> {
    const usual = parse({ quantity: LineQuantity }, { quantity }).quantity;
    const product = isProductId(productId) ? (await this.catalog.get([productId])).get(productId) : undefined;
    if (!product?.active) throw new ProductUnavailable([productId]);
    const lines = await this.guides.get(organizationId);
    if (!lines.some((line) => line.productId === product.productId) && lines.length >= MAX_ORDER_GUIDE_LINES) {
      throw new ValidationFailed(
        [
          {
            code: 'TOO_MANY_ITEMS',
            message: `the order guide must have at most ${MAX_ORDER_GUIDE_LINES} products`,
            path: ['items'],
          },
        ],
        `The order guide already holds ${MAX_ORDER_GUIDE_LINES} products`,
      );
    }
    await this.guides.upsert(organizationId, product.productId, usual, this.clock.now());
    return product;
  }

  /** Sets a line's usual quantity (1-999), if the line is still at `version` (OrderGuideChanged). */
  async changeQuantity(
    organizationId: OrganizationId,
    productId: string,
    quantity: unknown,
    version: unknown,
  ): Promise<void> {
    const input = parse({ quantity: LineQuantity, version: Version }, { quantity, version });
    if (!isProductId(productId)) throw new ProductUnavailable([productId]);
    await this.guides.setQuantity(organizationId, productId, input.quantity, input.version, this.clock.now());
  }

  /** Removes a line, if it is still at `version` (OrderGuideChanged). */
  async remove(organizationId: OrganizationId, productId: string, version: unknown): Promise<void> {
    const input = parse({ version: Version }, { version });
    if (!isProductId(productId)) return;
    await this.guides.remove(organizationId, productId, input.version);
  }

  /**
   * Puts the chosen lines in the profile's cart, each with the quantity given for it:
   * 1. at least one line, each a line of the guide (ValidationFailed);
   * 2. the cart adds them as `CartService.addLines` does (1-999, capped at 999 with what
   *    the cart holds, products no longer sold skipped and returned).
   */
  async addToCart(
    organizationId: OrganizationId,
    profileId: ProfileId,
    chosen: readonly { productId: string; quantity: unknown }[],
  ): Promise<AddedLines> {
    if (chosen.length === 0) {
      throw new ValidationFailed([
        { code: 'REQUIRED', message: 'Select at least one product of the order guide', path: ['items'] },
      ]);
    }
    const lines = await this.guides.get(organizationId);
    const stranger = chosen.find((choice) => !lines.some((line) => line.productId === choice.productId));
    if (stranger) {
      throw new ValidationFailed([
        { code: 'INVALID_VALUE', message: `${stranger.productId} is not in the order guide`, path: ['items'] },
      ]);
    }
    return this.cartService.addLines(profileId, chosen);
  }
}

function parse<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  input: Record<string, unknown>,
): z.infer<z.ZodMiniObject<Shape>> {
  const parsed = z.object(shape).safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
}
