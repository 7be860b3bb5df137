import type { UsStateName } from '../addresses/us-states';
import { type Cents, divideRoundHalfUp } from '../money';

/**
 * State-level base sales tax rates, in percent, keyed by the state's full name as
 * addresses store it. Source: Tax Foundation, "State and Local Sales Tax Rates, 2025"
 * (rates as of January 1, 2025), state column only. California (7.25%), Utah (6.10%)
 * and Virginia (5.30%) include the statewide add-on the Tax Foundation counts in the
 * state rate.
 *
 * Deliberately simple: no local (county/city) rates and no product exemptions (several
 * states exempt medical supplies). Quotes in the module are estimates the invoice may
 * correct; when the rates change, edit this table and its date together.
 *
 * Written as decimal text so no rate passes through a binary float: 6.875% is exactly
 * 68 750 parts per million.
 */
const STATE_BASE_RATE_PERCENT: Readonly<Record<UsStateName, string>> = {
  Alabama: '4',
  Alaska: '0',
  Arizona: '5.6',
  Arkansas: '6.5',
  California: '7.25',
  Colorado: '2.9',
  Connecticut: '6.35',
  Delaware: '0',
  'District of Columbia': '6',
  Florida: '6',
  Georgia: '4',
  Hawaii: '4',
  Idaho: '6',
  Illinois: '6.25',
  Indiana: '7',
  Iowa: '6',
  Kansas: '6.5',
  Kentucky: '6',
  Louisiana: '5',
  Maine: '5.5',
  Maryland: '6',
  Massachusetts: '6.25',
  Michigan: '6',
  Minnesota: '6.875',
  Mississippi: '7',
  Missouri: '4.225',
  Montana: '0',
  Nebraska: '5.5',
  Nevada: '6.85',
  'New Hampshire': '0',
  'New Jersey': '6.625',
  'New Mexico': '4.875',
  'New York': '4',
  'North Carolina': '4.75',
  'North Dakota': '5',
  Ohio: '5.75',
  Oklahoma: '4.5',
  Oregon: '0',
  Pennsylvania: '6',
  'Rhode Island': '7',
  'South Carolina': '6',
  'South Dakota': '4.2',
  Tennessee: '7',
  Texas: '6.25',
  Utah: '6.1',
  Vermont: '6',
  Virginia: '5.3',
  Washington: '6.5',
  'West Virginia': '6',
  Wisconsin: '5',
  Wyoming: '4',
};

/** A percentage with up to four decimals, e.g. "6.875", as an integer number of parts per million. */
const PERCENT_TEXT = /^(\d{1,2})(?:\.(\d{1,4}))?$/;
const PARTS_PER_MILLION = 1_000_000n;

function percentToPartsPerMillion(percent: string): number {
  const match = PERCENT_TEXT.exec(percent);
  if (!match) throw new RangeError(`"${percent}" is not a sales tax percentage`);
  const [, whole = '', fraction = ''] = match;
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

export interface SalesTaxRate {
  readonly state: UsStateName;
  /** As the table writes it, e.g. "6.875"; for display. */
  readonly percent: string;
  /** The rate in exact integer form: 6.875% is 68 750. */
  readonly partsPerMillion: number;
}

export function salesTaxRate(state: UsStateName): SalesTaxRate {
  const percent = STATE_BASE_RATE_PERCENT[state];
  return { state, percent, partsPerMillion: percentToPartsPerMillion(percent) };
}

/** round_half_up(subtotal × rate), in exact integer arithmetic. */
export function salesTaxCents(subtotalCents: Cents, state: UsStateName): Cents {
  const { partsPerMillion } = salesTaxRate(state);
  return Number(divideRoundHalfUp(BigInt(subtotalCents) * BigInt(partsPerMillion), PARTS_PER_MILLION));
}
