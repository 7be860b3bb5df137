import { describe, expect, it } from 'vitest';
import type { Order } from '../../functions/domain/orders/order';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import {
  countedCentsOf,
  limitPassedBy,
  monthSpendCredit,
  remainingCentsOf,
  type SpendMonth,
} from '../../functions/domain/spending/monthly-spend';

describe('the monthly limit’s rule', () => {
  it('weighs the order limit first, then the month: reaching the limit exactly stays within it', () => {
    const limits = { orderLimitCents: 30_000, monthlyLimitCents: 100_000 };
    expect(limitPassedBy(limits, 0, 30_001)).toBe('order_limit');
    expect(limitPassedBy(limits, 99_999, 30_001)).toBe('order_limit');
    expect(limitPassedBy(limits, 70_000, 30_000)).toBeUndefined();
    expect(limitPassedBy(limits, 70_001, 30_000)).toBe('monthly_limit');
    expect(limitPassedBy({}, 10_000_000, 10_000_000)).toBeUndefined();
    expect(remainingCentsOf(70_000, 100_000)).toBe(30_000);
    expect(remainingCentsOf(120_000, 100_000)).toBe(0);
  });

  it('gives back what a change takes off the order, to the month it counted in', () => {
    const order = {
      profileId: 'p-1' as ProfileId,
      spendMonth: '2036-11' as SpendMonth,
      status: 'delivered',
      totalCents: 10_845,
    } as Order;
    const refunded = { ...order, refundedCents: 1_001 } as Order;
    expect(countedCentsOf(refunded)).toBe(9_844);
    expect(monthSpendCredit(order, refunded, order.spendMonth!)).toEqual({
      profileId: 'p-1',
      month: '2036-11',
      amountCents: 1_001,
    });
    expect(
      monthSpendCredit(refunded, { ...refunded, status: 'cancelled' } as Order, order.spendMonth!)?.amountCents,
    ).toBe(9_844);
    expect(monthSpendCredit(order, { ...order, status: 'shipped' } as Order, order.spendMonth!)).toBeUndefined();
  });
});
