/**
 * An instant's wall-clock stamp in a zone (functions/domain/zoned-stamp.ts), which names the month an order counts
 * in and the Spending CSV's `Placed at`: Intl's rules exactly, across DST changes and a month's first minute.
 */
import { describe, expect, it } from 'vitest';
import { spendMonthOf } from '../../functions/domain/spending/monthly-spend';
import { zonedStamp } from '../../functions/domain/zoned-stamp';

describe('zonedStamp', () => {
  it('writes the zone’s wall clock on both sides of a DST change', () => {
    // Los Angeles springs forward at 02:00 on 2026-03-08: 10:30 UTC is 03:30 PDT, 09:30 UTC 01:30 PST.
    expect(zonedStamp('2026-03-08T10:30:00Z', 'America/Los_Angeles')).toBe('2026-03-08 03:30');
    expect(zonedStamp('2026-03-08T09:30:00Z', 'America/Los_Angeles')).toBe('2026-03-08 01:30');
    // New York falls back at 02:00 on 2026-11-01: 05:30 and 06:30 UTC are both 01:30 local.
    expect(zonedStamp('2026-11-01T05:30:00Z', 'America/New_York')).toBe('2026-11-01 01:30');
    expect(zonedStamp('2026-11-01T06:30:00Z', 'America/New_York')).toBe('2026-11-01 01:30');
    expect(zonedStamp(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01 05:30');
  });

  it('writes midnight as 00, never 24', () => {
    expect(zonedStamp('2026-12-01T05:00:00Z', 'America/New_York')).toBe('2026-12-01 00:00');
  });

  it('puts an order in the month of the organization’s zone', () => {
    expect(spendMonthOf(new Date('2026-12-01T04:59:59Z'), 'America/New_York')).toBe('2026-11');
    expect(spendMonthOf(new Date('2026-12-01T05:00:00Z'), 'America/New_York')).toBe('2026-12');
    expect(spendMonthOf(new Date('2026-11-30T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-12');
  });
});
