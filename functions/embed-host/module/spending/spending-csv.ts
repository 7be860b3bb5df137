/**
 * The Spending page's `Download CSV`: one row per counted order of the month, its `Net`
 * what the order adds to the page's total, so the column sums to it to the cent (docs/module.md,
 * "Spending"). csv-stringify writes RFC 4180 (quotes where needed, CRLF rows) and its
 * `escape_formulas` puts an apostrophe before a cell a spreadsheet would run as a formula
 * (= + - @ tab CR, and their full-width forms): a PO number is the buyer's text, never a
 * formula in the bookkeeper's spreadsheet.
 */
import { stringify } from 'csv-stringify/sync';
import type { SpendRow } from '../../../domain/spending/spend-report';
import { zonedStamp } from '../../../domain/zoned-stamp';

/** Dollars to the cent as text ("1234.50"), from whole cents, so no float reaches the file. */
const dollars = (cents: number): string => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const SPENDING_CSV_COLUMNS = [
  'Order',
  'PO number',
  'Placed at',
  'User',
  'Location',
  'Status',
  'Invoice',
  'Goods',
  'Tax',
  'Shipping',
  'Refunded',
  'Net',
] as const;

export function spendingCsv(rows: readonly SpendRow[], timeZone: string): string {
  return stringify(
    [
      SPENDING_CSV_COLUMNS,
      ...rows.map((row) => [
        row.orderId,
        row.poNumber ?? '',
        // Sorts as text and reads in any locale; the organization's zone (the page's lede names it).
        zonedStamp(row.createdAt, timeZone),
        row.userName,
        row.locationName,
        row.status,
        row.invoiceNumber ?? '',
        dollars(row.goodsCents),
        dollars(row.taxCents),
        dollars(row.shippingCents),
        dollars(row.refundedCents),
        dollars(row.netCents),
      ]),
    ],
    { record_delimiter: 'windows', escape_formulas: true },
  );
}
