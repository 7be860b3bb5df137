/**
 * What an order from a cart (or given items) would be before it is placed: its owner
 * checked, its location, its items and address snapshotted and priced. Placing an order
 * and submitting one for approval both start here.
 */
import type { CatalogRepository } from '../catalog/catalog-repository';
import type { Product, ProductId } from '../catalog/product';
import { EmptyCart, Forbidden, ProductUnavailable, ShippingLocationUnavailable } from '../errors';
import type { Organization, OrganizationAggregate, Profile, ShippingLocation } from '../organizations/organization';
import type { Partner } from '../partners/partner';
import type { Cart, CartRepository } from './cart';
import { type PricedCart, priceCart } from './cart-service';
import type { OrderItem, ShippingAddressSnapshot } from './order';
import type { OrderReferences } from './order-references';
import { type OrderPricing, type PricingConfig, withSalesTax } from './order-pricing';
import { productTaxCode } from '../tax/product-tax-codes';
import type { SalesTaxQuotes } from '../tax/sales-tax-quotes';
import type { SalesTaxRequest } from '../tax/sales-tax-provider';

export interface PlaceOrderInput {
  readonly partner: Pick<Partner, 'id'>;
  /** Who orders: the signed-in user of the module (or the profile a sandbox call names). */
  readonly profile: Profile;
  /** The profile's organization, with its locations. */
  readonly organization: OrganizationAggregate;
  /** One of the organization's active locations; absent means its default location. */
  readonly shippingLocationId?: string;
  /**
   * What to order instead of the cart (the sandbox API places orders without touching
   * the user's cart); the cart is ordered and emptied when absent.
   */
  readonly items?: readonly { readonly productId: ProductId; readonly quantity: number }[];
  /**
   * The catalog's products for `items`, when the caller read them already (the sandbox
   * reads them while it reads the profile); read here otherwise.
   */
  readonly products?: ReadonlyMap<ProductId, Product>;
  /** The buyer's PO number and notes, already parsed (`parseOrderReferences`). */
  readonly references?: OrderReferences;
}

/** An order as `quote` priced it, before it is placed (or submitted for approval). */
export interface OrderQuote {
  /** The cart it was priced from (the given items, for an order of items). */
  readonly cart: Cart;
  readonly items: readonly OrderItem[];
  readonly shippingAddress: ShippingAddressSnapshot;
  readonly pricing: OrderPricing;
  /** Where its Stripe Tax calculation is remembered, forgotten once an order carries it (`SalesTaxQuotes.used`). */
  readonly salesTaxKey: string;
}

interface QuoteDependencies {
  readonly carts: Pick<CartRepository, 'get'>;
  readonly catalog: Pick<CatalogRepository, 'get'>;
  readonly pricing: PricingConfig;
  readonly salesTax: SalesTaxQuotes;
}

/**
 * The order `input` would place, priced for its location's address with Stripe Tax's
 * tax (see `OrderService.quote`).
 */
export async function quoteOrder(deps: QuoteDependencies, input: PlaceOrderInput): Promise<OrderQuote> {
  const [quote] = await quoteEach(deps, input, [input.shippingLocationId]);
  if (!quote) throw new RangeError('one location asked, one quote');
  return quote;
}

/**
 * The order `input` would place shipped to each of the locations (`undefined`: the
 * default one), from one read of the cart and catalog: checkout shows them all, so the
 * buyer sees the total of every choice before placing it. Each location's tax is one
 * Stripe Tax calculation, remembered beside the cart for placing.
 */
export async function quoteEach(
  deps: QuoteDependencies,
  input: Omit<PlaceOrderInput, 'shippingLocationId'>,
  locationIds: readonly (string | undefined)[],
): Promise<OrderQuote[]> {
  const { partner, profile, organization } = input;
  assertSameOwner(partner, profile, organization.organization);
  const locations = locationIds.map((id) => shippingLocation(organization, id));

  const cart: Cart = input.items
    ? { profileId: profile.id, lines: input.items.map((item) => ({ ...item, addedAt: '' })) }
    : await deps.carts.get(profile.id);
  if (cart.lines.length === 0) throw new EmptyCart();
  const products = input.products ?? (await deps.catalog.get(cart.lines.map((line) => line.productId)));
  const priced = priceCart(cart, products, deps.pricing);
  if (priced.unavailable.length > 0) throw new ProductUnavailable(priced.unavailable.map((line) => line.productId));

  const items: OrderItem[] = priced.lines.map(({ product, quantity }) => ({
    productId: product.productId,
    name: product.name,
    unit: product.unit,
    unitPriceCents: product.priceCents,
    quantity,
  }));
  const exempt = organization.organization.taxExempt === true;
  return Promise.all(
    locations.map(async (location): Promise<OrderQuote> => {
      const shippingAddress = addressSnapshot(location);
      const tax = await deps.salesTax.taxFor(profile.id, salesTaxRequest(priced, shippingAddress, exempt));
      const pricing = withSalesTax(priced.untaxed, tax.calculation, exempt);
      return { cart, items, shippingAddress, pricing, salesTaxKey: tax.key };
    }),
  );
}

/** What Stripe Tax is asked: each line with its product's tax code, the shipping charge, the location's address. */
function salesTaxRequest(priced: PricedCart, address: ShippingAddressSnapshot, exempt: boolean): SalesTaxRequest {
  return {
    lines: priced.lines.map((line) => ({
      reference: line.product.productId,
      amountCents: line.lineTotalCents,
      quantity: line.quantity,
      taxCode: productTaxCode(line.product),
    })),
    shippingCents: priced.untaxed.shippingCents,
    address: {
      line1: address.line1,
      ...(address.line2 === undefined ? {} : { line2: address.line2 }),
      city: address.city,
      state: address.state,
      postalCode: address.zip,
    },
    exempt,
  };
}

function assertSameOwner(partner: Pick<Partner, 'id'>, profile: Profile, organization: Organization): void {
  if (organization.partnerId !== partner.id || profile.partnerId !== partner.id) {
    throw new Forbidden('The profile or organization belongs to another partner');
  }
  if (profile.organizationId !== organization.id)
    throw new Forbidden(`Profile ${profile.id} is not in organization ${organization.id}`);
}

function shippingLocation(
  organization: OrganizationAggregate,
  shippingLocationId: string | undefined,
): ShippingLocation {
  const location =
    shippingLocationId === undefined
      ? organization.locations.find((candidate) => candidate.isDefault)
      : organization.locations.find((candidate) => candidate.id === shippingLocationId);
  if (!location?.isActive) throw new ShippingLocationUnavailable(shippingLocationId);
  return location;
}

function addressSnapshot(location: ShippingLocation): ShippingAddressSnapshot {
  const { address } = location;
  return {
    locationId: location.id,
    locationName: location.name,
    line1: address.line1,
    ...(address.line2 === undefined ? {} : { line2: address.line2 }),
    city: address.city,
    state: address.province,
    zip: address.postalCode,
  };
}
