/**
 * Days as `YYYY-MM-DD`, counted on the calendar by date-fns: a day string is read as that
 * date (no time of day, no zone), so month ends, leap years and DST never shift the answer.
 */
import { addDays, formatISO, parseISO } from 'date-fns';

/** The day `days` days after `day` (before, when negative). */
export const addCalendarDays = (day: string, days: number): string =>
  formatISO(addDays(parseISO(day), days), { representation: 'date' });

/** The UTC calendar day of an instant. */
export const utcDayOf = (at: Date): string => at.toISOString().slice(0, 10);
