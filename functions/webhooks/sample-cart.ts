/**
 * The made-up cart every sample event of `POST /v1/webhooks/test` is about: three lines
 * of the seed catalog (a typical dental-office reorder), priced by the module's own
 * pricing, bought by one made-up user for a real-looking Austin address. Order, approval
 * and invoice samples share it, so their amounts agree with each other.
 */
import type { UsStateName } from '../domain/addresses/us-states';
import type { PartnerId } from '../domain/partners/partner';
import type { WebhookEventKind } from '../domain/events/order-event-kinds';
import { SEED_CATALOG } from '../domain/catalog/seed-catalog';
import type { ProductId } from '../domain/catalog/product';
import { divideRoundHalfUp, sumCents, toCents } from '../domain/money';
import type { OrderItem } from '../domain/orders/order';
import { type OrderPricing, priceOrder } from '../domain/orders/order-pricing';

/** What a sample of one kind is made for. */
export interface SampleEventInput<K extends WebhookEventKind> {
  readonly partnerId: PartnerId;
  readonly kind: K;
  /** The partner's own organization, or the placeholder (`test-org`). */
  readonly internalOrgId: string;
  readonly now: Date;
}

const SAMPLE_LINES: readonly { readonly productId: string; readonly quantity: number }[] = [
  { productId: 'GLV-NIT-M-100', quantity: 4 },
  { productId: 'MSK-L3-50', quantity: 2 },
  { productId: 'WIP-CAVI-160', quantity: 3 },
];

export const SAMPLE_ADDRESS = {
  line1: '1100 Congress Ave',
  line2: 'Suite 200',
  city: 'Austin',
  state: 'Texas' satisfies UsStateName,
  zip: '78701',
} as const;

/** Who placed the sample order (or asked for its approval), and who approved it. */
export const SAMPLE_BUYER = { internalUserId: 'user-jordan-rivera', email: 'jordan.rivera@example.com' } as const;
export const SAMPLE_APPROVER = { internalUserId: 'user-sam-okafor', email: 'sam.okafor@example.com' } as const;
export const SAMPLE_PO_NUMBER = 'PO-2036-0042';

/** An hour, the step between a sample's changes, which all end now so every time is in the past. */
export const HOUR_MS = 60 * 60 * 1000;

/** The sample cart's lines, as an order or an approval request holds them. */
export function sampleItems(): OrderItem[] {
  return SAMPLE_LINES.map(({ productId, quantity }) => {
    const product = SEED_CATALOG.find((candidate) => candidate.product_id === productId);
    if (!product) throw new RangeError(`${productId} is not in the seed catalog`);
    return {
      productId: productId as ProductId,
      name: product.name,
      unit: product.unit,
      unitPriceCents: toCents(product.price),
      quantity,
    };
  });
}

/**
 * Austin's combined rate (8.25 %) on goods and shipping, as Stripe Tax taxes them there: a sample's order exists
 * nowhere, so no calculation is made (or recorded) for it.
 */
const SAMPLE_TAX_BASIS_POINTS = 825n;

/** The sample cart's amounts, exactly `subtotal + tax + shipping`. */
export function samplePricing(items: readonly OrderItem[]): OrderPricing {
  const untaxed = priceOrder(items);
  const taxable = BigInt(untaxed.subtotalCents + untaxed.shippingCents);
  const taxCents = Number(divideRoundHalfUp(taxable * SAMPLE_TAX_BASIS_POINTS, 10_000n));
  return { ...untaxed, taxCents, totalCents: sumCents([untaxed.subtotalCents, taxCents, untaxed.shippingCents]) };
}
