/**
 * The Spending page's `Download CSV`: one row per order line of the month's counted orders
 * (docs/module.md, "Spending"). csv-stringify writes RFC 4180 (quotes where needed, CRLF
 * rows) and its `escape_formulas` puts an apostrophe before a cell a spreadsheet would run
 * as a formula (= + - @ tab CR, and their full-width forms): a PO number or product name
 * is the buyer's or the partner's text, never a formula in the approver's spreadsheet.
 */
import { stringify } from 'csv-stringify/sync';
import { formatInTimeZone } from 'date-fns-tz';
import type { SpendLine } from '../../../domain/spending/spend-report';

/** "2026-11-27 14:05": sorts as text and reads in any locale; the header names the zone. */
const zonedStamp = (iso: string, timeZone: string): string => formatInTimeZone(iso, timeZone, 'yyyy-MM-dd HH:mm');

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
