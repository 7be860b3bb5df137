import { type Cents, sumCents } from '../money';
import type { SalesTaxCalculation } from '../tax/sales-tax-provider';

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

/** An order's goods and shipping, before tax. */
export interface UntaxedPricing {
  readonly subtotalCents: Cents;
  readonly shippingCents: Cents;
}

/** Where an order's tax came from: the Stripe Tax calculation the invoice records as a sale. */
export interface OrderSalesTax {
  readonly calculationId: string;
  /** The combined rate on the goods ("8.625"); absent when nothing was taxed. */
  readonly ratePercent?: string;
  /** The organization was tax-exempt when it was quoted. */
  readonly exempt: boolean;
}

export interface OrderPricing extends UntaxedPricing {
  readonly taxCents: Cents;
  /** Exactly subtotal + tax + shipping. */
  readonly totalCents: Cents;
  /** Absent on orders placed before tax came from Stripe Tax. */
  readonly salesTax?: OrderSalesTax;
}

export const lineTotalCents = (line: PricedLine): Cents => {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
    throw new RangeError(`quantity ${String(line.quantity)} is not a positive integer`);
  }
  return sumCents([line.unitPriceCents * line.quantity]);
};

/**
 * Prices lines before tax: subtotal = Σ unit price × quantity; shipping = the flat fee
 * under the free-shipping threshold, else nothing. All in integer cents, so the total is
 * exact whatever the cart. Tax comes from Stripe Tax (`withSalesTax`).
 */
export function priceOrder(lines: readonly PricedLine[], config: PricingConfig = DEFAULT_PRICING): UntaxedPricing {
  const subtotalCents = sumCents(lines.map(lineTotalCents));
  const shippingCents = subtotalCents < config.freeShippingThresholdCents ? config.flatShippingCents : 0;
  return { subtotalCents, shippingCents };
}

/** The order's pricing with the tax Stripe Tax calculated for it (goods and shipping together). */
export function withSalesTax(untaxed: UntaxedPricing, calculation: SalesTaxCalculation, exempt: boolean): OrderPricing {
  const { subtotalCents, shippingCents } = untaxed;
  const taxCents = calculation.taxCents;
  return {
    subtotalCents,
    taxCents,
    shippingCents,
    totalCents: sumCents([subtotalCents, taxCents, shippingCents]),
    salesTax: {
      calculationId: calculation.calculationId,
      ...(calculation.ratePercent === undefined ? {} : { ratePercent: calculation.ratePercent }),
      exempt,
    },
  };
}
