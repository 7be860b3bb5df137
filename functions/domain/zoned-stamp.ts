/**
 * "2026-11-27 14:05": an instant's wall-clock date and time in a zone, written so it sorts as text. Intl's own
 * zone rules, exactly (date-fns-tz's `toZonedTime` would read them back through the process's zone, an hour off in
 * its DST gap; its `formatInTimeZone` carries date-fns' every pattern and the English locale, about 35 KB in each
 * bundle that counts a month). One formatter per zone, built on first use and kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `timeZone` must be a zone Intl knows (see `canonicalTimeZone`). */
export function zonedStamp(at: Date | string, timeZone: string): string {
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatterFor(timeZone).formatToParts(new Date(at))) part[type] = value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}
