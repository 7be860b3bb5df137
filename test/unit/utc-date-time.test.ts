import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUtcDateTime } from '../../functions/embed-host/module/utc-date-time';

const intl = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

describe('formatUtcDateTime', () => {
  it('writes midnight, noon and single digits as en-US does', () => {
    expect(formatUtcDateTime(new Date('2026-11-23T00:05:00Z'))).toBe('Nov 23, 2026, 12:05 AM');
    expect(formatUtcDateTime(new Date('2026-01-02T12:30:00Z'))).toBe('Jan 2, 2026, 12:30 PM');
    expect(formatUtcDateTime(new Date('2036-03-03T14:05:59Z'))).toBe('Mar 3, 2036, 2:05 PM');
  });

  it('matches Intl for any time from 2000 to 2100', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        expect(formatUtcDateTime(date)).toBe(intl.format(date).replace(/\u202f/g, ' '));
      }),
      { numRuns: 2000 },
    );
  });
});
