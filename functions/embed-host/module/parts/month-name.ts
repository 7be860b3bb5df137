import type { SpendMonth } from '../../../domain/spending/monthly-spend';

const formats = {
  long: new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  short: new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
};

/**
 * A `YYYY-MM` as people read it: "November 2026" (long) or "Nov 2026" (short). Intl's month names, not date-fns'
 * `format` and `parse`, whose patterns and English locale would be about 40 KB of the embed host's bundle.
 */
export const monthName = (month: SpendMonth, style: 'long' | 'short'): string =>
  formats[style].format(new Date(`${month}-01T00:00:00Z`));
