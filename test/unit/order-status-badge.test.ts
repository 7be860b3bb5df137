import { describe, expect, it } from 'vitest';
import type { Cents } from '../../functions/domain/money';
import { statusLabel } from '../../functions/embed-host/module/parts/order-status';

describe('the order status a module user reads', () => {
  it('says "Partially refunded" with the amount for a delivered order refunded in part', () => {
    const label = statusLabel('delivered', {
      refund: { refundedAt: '2036-01-06T09:00:00.000Z', amountCents: 1249 as Cents },
      refundedCents: 1249 as Cents,
    });
    expect(label).toBe('Partially refunded ($12.49)');
  });

  it('says "Delivered" and "Refunded" otherwise', () => {
    expect(statusLabel('delivered', {})).toBe('Delivered');
    expect(statusLabel('refunded', { refundedCents: 3649 as Cents })).toBe('Refunded');
  });
});
