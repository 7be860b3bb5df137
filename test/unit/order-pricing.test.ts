import { describe, expect, it } from 'vitest';
import { US_STATES } from '../../functions/domain/addresses/us-states';
import { toCents } from '../../functions/domain/money';
import { DEFAULT_PRICING, priceOrder } from '../../functions/domain/orders/order-pricing';
import { salesTaxCents, salesTaxRate } from '../../functions/domain/orders/sales-tax';

const line = (price: number, quantity: number) => ({ unitPriceCents: toCents(price), quantity });

describe('sales tax', () => {
  it('has a base rate for each of the 50 states and DC', () => {
    expect(US_STATES).toHaveLength(51);
    for (const { name } of US_STATES) {
      const rate = salesTaxRate(name);
      expect(rate.partsPerMillion).toBeGreaterThanOrEqual(0);
      expect(rate.partsPerMillion).toBeLessThan(100_000);
    }
    expect(salesTaxRate('California').partsPerMillion).toBe(72_500);
    expect(salesTaxRate('Minnesota').partsPerMillion).toBe(68_750);
    expect(salesTaxRate('Missouri').partsPerMillion).toBe(42_250);
    expect(salesTaxRate('Oregon').partsPerMillion).toBe(0);
  });

  it('rounds half a cent up', () => {
    // 7.25% of $0.50 is 3.625 cents; of $0.20 is 1.45 cents; of $1.00 is 7.25 cents.
    expect(salesTaxCents(50, 'California')).toBe(4);
    expect(salesTaxCents(20, 'California')).toBe(1);
    // 6% of $0.25 is exactly 1.5 cents: half up, not half to even.
    expect(salesTaxCents(25, 'Florida')).toBe(2);
    expect(salesTaxCents(75, 'Florida')).toBe(5); // 4.5 -> 5
    // 6.875% of $0.08 is 0.55 cents; of $0.07 is 0.48125 cents.
    expect(salesTaxCents(8, 'Minnesota')).toBe(1);
    expect(salesTaxCents(7, 'Minnesota')).toBe(0);
    // 4.225% of $100.00 is 422.5 cents.
    expect(salesTaxCents(10_000, 'Missouri')).toBe(423);
    expect(salesTaxCents(123_456, 'Delaware')).toBe(0);
  });
});

describe('priceOrder', () => {
  it('sums carts whose float sums would drift, exactly', () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(0.1 + 0.2).not.toBe(0.3);
    const pricing = priceOrder([line(0.1, 3), line(0.2, 1), line(0.1, 1)], 'Oregon');
    expect(pricing).toEqual({ subtotalCents: 60, taxCents: 0, shippingCents: 995, totalCents: 1055 });

    // 19.99 * 3 = 59.97000000000001 and 0.07 * 3 = 0.21000000000000002 in floats.
    const drifting = priceOrder([line(19.99, 3), line(0.07, 3), line(1.1, 1)], 'Texas');
    expect(drifting.subtotalCents).toBe(5997 + 21 + 110);
    expect(drifting.taxCents).toBe(383); // 6.25% of 61.28 = 383.0 cents
    expect(drifting.totalCents).toBe(drifting.subtotalCents + drifting.taxCents + drifting.shippingCents);
  });

  it('charges the flat shipping fee under $150.00 and none from $150.00 on', () => {
    expect(priceOrder([line(149.99, 1)], 'Oregon').shippingCents).toBe(995);
    expect(priceOrder([line(150, 1)], 'Oregon').shippingCents).toBe(0);
    expect(priceOrder([line(75, 2)], 'Oregon').shippingCents).toBe(0);
    expect(DEFAULT_PRICING).toEqual({ flatShippingCents: 995, freeShippingThresholdCents: 15_000 });
  });

  it('takes the fee and the threshold from configuration', () => {
    const config = { flatShippingCents: 1250, freeShippingThresholdCents: 5000 };
    expect(priceOrder([line(49.99, 1)], 'Oregon', config).shippingCents).toBe(1250);
    expect(priceOrder([line(50, 1)], 'Oregon', config).shippingCents).toBe(0);
  });

  it('taxes the subtotal only, rounded half up, and totals exactly', () => {
    // 7.25% of $12.50 = 90.625 cents -> 91; shipping is not taxed.
    const pricing = priceOrder([line(12.5, 1)], 'California');
    expect(pricing).toEqual({ subtotalCents: 1250, taxCents: 91, shippingCents: 995, totalCents: 2336 });
  });

  it('refuses quantities that are not positive integers', () => {
    expect(() => priceOrder([line(1, 0)], 'Oregon')).toThrow(RangeError);
    expect(() => priceOrder([line(1, 1.5)], 'Oregon')).toThrow(RangeError);
  });
});
