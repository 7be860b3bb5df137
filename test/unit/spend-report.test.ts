import { describe, expect, it } from 'vitest';
import type { Order } from '../../functions/domain/orders/order';
import type { SpendMonth } from '../../functions/domain/spending/monthly-spend';
import type { Profile, ProfileId } from '../../functions/domain/organizations/organization';
import { monthBounds, parseSpendMonth, previousMonth, spendReport } from '../../functions/domain/spending/spend-report';

const month = '2026-03' as SpendMonth;

/** Only the fields the report reads; the rest of an order does not change a total. */
const anOrder = (fields: {
  user: string;
  location: string;
  lines: [productId: string, unitPriceCents: number, quantity: number][];
  totalCents: number;
  status?: Order['status'];
  refundedCents?: number;
}): Order =>
  ({
    internalUserId: fields.user,
    shippingAddress: { locationId: `id-${fields.location}`, locationName: `Name ${fields.location}` },
    items: fields.lines.map(([productId, unitPriceCents, quantity]) => ({ productId, unitPriceCents, quantity })),
    totalCents: fields.totalCents,
    status: fields.status ?? 'confirmed',
    ...(fields.refundedCents === undefined ? {} : { refundedCents: fields.refundedCents }),
  }) as unknown as Order;

const aProfile = (internalUserId: string, limits: Partial<Profile> = {}): Profile =>
  ({ id: `p-${internalUserId}`, internalUserId, firstName: 'Ann', lastName: internalUserId, ...limits }) as Profile;

describe('spend report', () => {
  const report = spendReport({
    month,
    timeZone: 'America/Los_Angeles',
    complete: true,
    orders: [
      anOrder({ user: 'u1', location: 'a', lines: [['glove', 1_999, 3]], totalCents: 6_497 }),
      anOrder({
        user: 'u2',
        location: 'b',
        lines: [
          ['glove', 1_999, 1],
          ['mask', 501, 2],
        ],
        totalCents: 3_500,
      }),
      anOrder({ user: 'u1', location: 'b', lines: [['mask', 501, 1]], totalCents: 1_000, refundedCents: 250 }),
      anOrder({ user: 'u2', location: 'a', lines: [['glove', 1_999, 9]], totalCents: 99_999, status: 'cancelled' }),
      anOrder({ user: 'u1', location: 'a', lines: [['gone', 100, 1]], totalCents: 100 }),
    ],
    profiles: [aProfile('u1', { orderLimitCents: 10_000, monthlyLimitCents: 8_000 }), aProfile('u2'), aProfile('u3')],
    locationIds: new Map([
      ['id-a', 'loc-a'],
      ['id-b', 'loc-b'],
    ]),
    categoryOf: (id) => ({ glove: 'Gloves & PPE', mask: 'Masks' })[id],
    counters: new Map([['p-u1' as ProfileId, { spentCents: 7_597, limitCents: 8_000 }]]),
    current: true,
  });

  it('totals placed orders (cancelled left out, refunds taken off) by user, location and category to the cent', () => {
    expect(report.orderCount).toBe(4);
    expect(report.totalCents).toBe(6_497 + 3_500 + 750 + 100);
    expect(report.users).toEqual([
      {
        internalUserId: 'u1',
        name: 'Ann u1',
        totalCents: 7_347,
        orderLimitCents: 10_000,
        monthlyLimitCents: 8_000,
        remainingCents: 403,
      },
      { internalUserId: 'u2', name: 'Ann u2', totalCents: 3_500 },
      { internalUserId: 'u3', name: 'Ann u3', totalCents: 0 },
    ]);
    expect(report.locations).toEqual([
      { internalShippingLocationId: 'loc-a', name: 'Name a', totalCents: 6_597 },
      { internalShippingLocationId: 'loc-b', name: 'Name b', totalCents: 4_250 },
    ]);
    expect(report.categories).toEqual([
      { category: 'Gloves & PPE', totalCents: 1_999 * 4 },
      { category: 'Masks', totalCents: 501 * 3 },
      { category: 'Uncategorized', totalCents: 100 },
    ]);
  });
});

describe('months', () => {
  it('spans a month of the zone in UTC, across a DST change', () => {
    const { start, end } = monthBounds(month, 'America/Los_Angeles');
    expect(start.toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(end.toISOString()).toBe('2026-04-01T07:00:00.000Z');
    expect(monthBounds('2026-12' as SpendMonth, 'UTC').end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(monthBounds('2026-07' as SpendMonth, 'Asia/Kolkata').start.toISOString()).toBe('2026-06-30T18:30:00.000Z');
  });

  it('accepts YYYY-MM only, and steps back over a year', () => {
    expect(parseSpendMonth('2026-11')).toBe('2026-11');
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', ' 2026-11'])
      expect(parseSpendMonth(bad)).toBeUndefined();
    expect(previousMonth('2026-01' as SpendMonth)).toBe('2025-12');
  });
});
