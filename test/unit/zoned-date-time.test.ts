import { describe, expect, it } from 'vitest';
import { formatZonedDateTime } from '../../functions/embed-host/module/zoned-date-time';
import { canonicalTimeZone, STATE_TIME_ZONES } from '../../functions/domain/time-zones';
import { US_STATES } from '../../functions/domain/addresses/us-states';

describe('formatZonedDateTime', () => {
  it('writes the time in the zone, with the zone named', () => {
    expect(formatZonedDateTime(new Date('2026-11-28T23:00:00Z'), 'America/Chicago')).toBe('Nov 28, 2026, 5:00 PM CST');
    expect(formatZonedDateTime(new Date('2026-07-04T16:05:00Z'), 'America/New_York')).toBe('Jul 4, 2026, 12:05 PM EDT');
    expect(formatZonedDateTime(new Date('2026-01-02T00:30:00Z'), 'America/Los_Angeles')).toBe(
      'Jan 1, 2026, 4:30 PM PST',
    );
    expect(formatZonedDateTime(new Date('2026-01-02T12:30:00Z'), 'UTC')).toBe('Jan 2, 2026, 12:30 PM UTC');
  });
});

describe('time zones', () => {
  it('gives every state and DC a zone Intl knows', () => {
    for (const state of US_STATES)
      expect(canonicalTimeZone(STATE_TIME_ZONES[state.name])).toBe(STATE_TIME_ZONES[state.name]);
  });

  it('canonicalizes known zones and refuses anything else', () => {
    expect(canonicalTimeZone('america/chicago')).toBe('America/Chicago');
    for (const bad of ['', 'Mars/Olympus', 'America/Chicago\u0000', '<script>', 'x'.repeat(65), '../etc'])
      expect(canonicalTimeZone(bad)).toBeUndefined();
  });
});
