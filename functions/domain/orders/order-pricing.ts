import type { UsStateName } from '../addresses/us-states';
import { type Cents, sumCents } from '../money';
import { salesTaxCents } from './sales-tax';

export interface PricingConfig {
  /** Charged when the subtotal is under the threshold. */
  readonly flatShippingCents: Cents;
  /** A subtotal of at least this ships free. */
  readonly freeShippingThresholdCents: Cents;
}

export const DEFAULT_PRICING: PricingConfig = {
  flatShippingCents: 995,
  freeShippingThresholdCents: 15_000,
};

export interface PricedLine {
  readonly unitPriceCents: Cents;
  readonly quantity: number;
}

export interface OrderPricing {
  readonly subtotalCents: Cents;
  readonly taxCents: Cents;
  readonly shippingCents: Cents;
  /** Exactly subtotal + tax + shipping. */
  readonly totalCents: Cents;
}

export const lineTotalCents = (line: PricedLine): Cents => {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
    throw new RangeError(`quantity ${String(line.quantity)} is not a positive integer`);
  }
  return sumCents([line.unitPriceCents * line.quantity]);
};

/**
 * Prices lines shipped to a state: subtotal = Σ unit price × quantity; tax = the state's
 * base rate on the subtotal, rounded half up (shipping is not taxed); shipping = the flat
 * fee under the free-shipping threshold, else nothing. All in integer cents, so the
 * total is exact whatever the cart.
 */
export function priceOrder(
  lines: readonly PricedLine[],
  state: UsStateName,
  config: PricingConfig = DEFAULT_PRICING,
): OrderPricing {
  const subtotalCents = sumCents(lines.map(lineTotalCents));
  const taxCents = salesTaxCents(subtotalCents, state);
  const shippingCents = subtotalCents < config.freeShippingThresholdCents ? config.flatShippingCents : 0;
  return { subtotalCents, taxCents, shippingCents, totalCents: sumCents([subtotalCents, taxCents, shippingCents]) };
}
