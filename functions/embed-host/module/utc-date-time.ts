const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * "Mar 3, 2036, 2:05 PM": a UTC time as en-US writes a medium date and a short time.
 * Written out, not with `Intl.DateTimeFormat`: a formatter built at import cost every
 * cold start of the embed host about a millisecond, and ICU updates have changed this
 * output before (the narrow no-break space before "PM"). A unit test holds it equal
 * to this Node's Intl.
 */
export function formatUtcDateTime(date: Date): string {
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}
