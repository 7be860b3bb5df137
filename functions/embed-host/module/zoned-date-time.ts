/**
 * "Nov 28, 2026, 5:00 PM CST": a time as en-US writes a medium date and a short time, in
 * the buyer's zone, with the zone named. One formatter per zone, built on first use and
 * kept (a warm embed host formats in a handful of zones). ICU writes a narrow no-break
 * space before AM/PM; pages use a plain one, so text is searchable as typed.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
      timeZoneName: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `timeZone` must be a zone Intl knows (see `canonicalTimeZone`): the module resolves it before rendering. */
export const formatZonedDateTime = (date: Date, timeZone: string): string =>
  formatterFor(timeZone)
    .format(date)
    .replace(/[\u202f\u00a0]/g, ' ');
