import { describe, expect, it } from 'vitest';
import { toCents } from '../../functions/domain/money';
import { DEFAULT_PRICING, priceOrder, withSalesTax } from '../../functions/domain/orders/order-pricing';

const line = (price: number, quantity: number) => ({ unitPriceCents: toCents(price), quantity });

describe('priceOrder', () => {
  it('sums carts whose float sums would drift, exactly', () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(0.1 + 0.2).not.toBe(0.3);
    const pricing = priceOrder([line(0.1, 3), line(0.2, 1), line(0.1, 1)]);
    expect(pricing).toEqual({ subtotalCents: 60, shippingCents: 995 });

    // 19.99 * 3 = 59.97000000000001 and 0.07 * 3 = 0.21000000000000002 in floats.
    const drifting = priceOrder([line(19.99, 3), line(0.07, 3), line(1.1, 1)]);
    expect(drifting.subtotalCents).toBe(5997 + 21 + 110);
  });

  it('charges the flat shipping fee under $150.00 and none from $150.00 on', () => {
    expect(priceOrder([line(149.99, 1)]).shippingCents).toBe(995);
    expect(priceOrder([line(150, 1)]).shippingCents).toBe(0);
    expect(priceOrder([line(75, 2)]).shippingCents).toBe(0);
    expect(DEFAULT_PRICING).toEqual({ flatShippingCents: 995, freeShippingThresholdCents: 15_000 });
  });

  it('takes the fee and the threshold from configuration', () => {
    const config = { flatShippingCents: 1250, freeShippingThresholdCents: 5000 };
    expect(priceOrder([line(49.99, 1)], config).shippingCents).toBe(1250);
    expect(priceOrder([line(50, 1)], config).shippingCents).toBe(0);
  });

  it("adds Stripe Tax's amount as the order's tax, totals exactly and keeps the calculation for the invoice", () => {
    const calculation = {
      calculationId: 'taxcalc_1',
      taxCents: 194,
      shippingTaxCents: 82,
      ratePercent: '8.25',
      expiresAt: '2099-01-01T00:00:00.000Z',
    };
    expect(withSalesTax(priceOrder([line(12.5, 1)]), calculation, false)).toEqual({
      subtotalCents: 1250,
      taxCents: 194,
      shippingCents: 995,
      totalCents: 2439,
      salesTax: { calculationId: 'taxcalc_1', ratePercent: '8.25', exempt: false },
    });
  });

  it('refuses quantities that are not positive integers', () => {
    expect(() => priceOrder([line(1, 0)])).toThrow(RangeError);
    expect(() => priceOrder([line(1, 1.5)])).toThrow(RangeError);
  });
});
