/**
 * The Spending page's `Download CSV`: one row per order line of the month's counted orders
 * (docs/module.md, "Spending"). csv-stringify writes RFC 4180 (quotes where needed, CRLF
 * rows) and its `escape_formulas` puts an apostrophe before a cell a spreadsheet would run
 * as a formula (= + - @ tab CR, and their full-width forms): a PO number or product name
 * is the buyer's or the partner's text, never a formula in the approver's spreadsheet.
 */
import { stringify } from 'csv-stringify/sync';
import type { SpendLine } from '../../../domain/spending/spend-report';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-27 14:05": sorts as text and reads in any locale; the header names the zone. */
function zonedStamp(iso: string, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** Dollars to the cent as text ("1234.50"), from whole cents, so no float reaches the file. */
const dollars = (cents: number): string => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export function spendingCsv(lines: readonly SpendLine[], timeZone: string): string {
  return stringify(
    [
      ['Order number', `Date (${timeZone})`, 'User', 'Location', 'PO number', 'Product', 'Quantity', 'Amount (USD)'],
      ...lines.map((line) => [
        line.orderId,
        zonedStamp(line.createdAt, timeZone),
        line.userName,
        line.locationName,
        line.poNumber ?? '',
        line.product,
        String(line.quantity),
        dollars(line.amountCents),
      ]),
    ],
    { record_delimiter: 'windows', escape_formulas: true },
  );
}
