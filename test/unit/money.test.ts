import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRoundHalfUp, formatUsd, fromCents, parseCents, sumCents, toCents } from '../../functions/domain/money';

describe('money', () => {
  it('reads dollars with at most two decimals as exact cents, through their decimal text', () => {
    expect(toCents(19.99)).toBe(1999); // 19.99 * 100 is 1998.9999999999998
    expect(toCents(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(toCents(1.1)).toBe(110);
    expect(toCents(5)).toBe(500);
    expect(toCents('12.5')).toBe(1250);
    expect(toCents(' 0.07 ')).toBe(7);
    expect(toCents(-3.25)).toBe(-325);
    expect(toCents(0)).toBe(0);
  });

  it('refuses more than two decimals, float drift, exponents and unsafe sizes', () => {
    expect(parseCents(1.005)).toBeUndefined();
    expect(parseCents(0.1 + 0.2)).toBeUndefined();
    expect(parseCents('0.001')).toBeUndefined();
    expect(parseCents(1e21)).toBeUndefined();
    expect(parseCents(1e-7)).toBeUndefined();
    expect(parseCents(Number.NaN)).toBeUndefined();
    expect(parseCents(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(parseCents('1,000.00')).toBeUndefined();
    expect(parseCents('')).toBeUndefined();
    expect(parseCents('100000000000000000')).toBeUndefined();
    expect(() => toCents(1.005)).toThrow(RangeError);
  });

  it('writes cents as a number with at most two decimals, equal to the literal', () => {
    expect(fromCents(1999)).toBe(19.99);
    expect(fromCents(30)).toBe(0.3);
    expect(fromCents(100)).toBe(1);
    expect(JSON.stringify(fromCents(10_000_001))).toBe('100000.01');
    expect(() => fromCents(1.5)).toThrow(RangeError);
  });

  it('round-trips every cent value up to $1,000', () => {
    for (let cents = 0; cents <= 100_000; cents += 1) {
      if (toCents(fromCents(cents)) !== cents) throw new Error(`${cents} does not round-trip`);
    }
  });

  it('formats US dollars for people', () => {
    expect(formatUsd(123_450)).toBe('$1,234.50');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(-995)).toBe('-$9.95');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(-100_000_000)).toBe('-$1,000,000.00');
  });

  it('formats as en-US currency formatting does, for any amount', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (cents) => {
        expect(formatUsd(cents)).toBe(intl.format(cents / 100));
      }),
      { numRuns: 5000 },
    );
  });

  it('rounds a quotient half up, exactly', () => {
    expect(divideRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divideRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divideRoundHalfUp(15n, 10n)).toBe(2n);
    expect(divideRoundHalfUp(25n, 10n)).toBe(3n); // half up, not to even
    expect(divideRoundHalfUp(-25n, 10n)).toBe(-3n);
    expect(divideRoundHalfUp(0n, 7n)).toBe(0n);
  });

  it('sums cents and refuses fractions of a cent', () => {
    expect(sumCents([10, 10, 10, 20])).toBe(50);
    expect(() => sumCents([10, 0.5])).toThrow(RangeError);
  });
});
