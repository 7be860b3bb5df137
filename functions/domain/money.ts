/**
 * Money is integer US cents inside the service and a number with at most two decimals
 * outside it (docs/architecture.md, "Money"). Conversions go through the decimal text of a number, never through
 * `amount * 100`, because binary floats cannot hold most cent values exactly:
 * `19.99 * 100` is `1998.9999999999998`.
 */

/** An amount of US cents: a safe integer. The name of every field holding one ends in `Cents`. */
export type Cents = number;

/** Optional sign, digits, then at most two decimals. No exponent, no thousands separators. */
const DOLLARS_TEXT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/**
 * The cents of a dollar amount given as a number or decimal text, e.g. `19.99` -> 1999,
 * `'5'` -> 500; `undefined` when it has more than two decimals (`1.005`), is not finite,
 * is written with an exponent, or is too large to count in safe integers.
 *
 * A number is read through its shortest round-trip text (`String(n)`), so a value that
 * drifted in float arithmetic (`0.1 + 0.2` is `0.30000000000000004`) is refused rather
 * than silently rounded: the caller did arithmetic on floats, which is the bug.
 */
export function parseCents(amount: number | string): Cents | undefined {
  if (typeof amount === 'number' && !Number.isFinite(amount)) return undefined;
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const match = DOLLARS_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return undefined;
  return sign === '-' && cents !== 0 ? -cents : cents;
}

/** Like `parseCents`, for values already validated: throws a RangeError on what it refuses. */
export function toCents(amount: number | string): Cents {
  const cents = parseCents(amount);
  if (cents === undefined) {
    throw new RangeError(`${String(amount)} is not a dollar amount with at most two decimals`);
  }
  return cents;
}

/**
 * The dollar number for integer cents, e.g. 1999 -> 19.99. Division by 100 is correctly
 * rounded, so the result is the same double as the literal `19.99`, and JSON shows it
 * with at most two decimals.
 */
export function fromCents(cents: Cents): number {
  assertCents(cents);
  return cents / 100;
}

/**
 * "$1,234.50", "-$0.05": for pages, e-mails and the CLI. Written out, not with
 * `Intl.NumberFormat`: integer cents need no rounding, and building an Intl formatter
 * at import cost every cold start of the embed host about 4 ms (docs/performance.md).
 * A unit test holds it equal to en-US currency formatting.
 */
export function formatUsd(cents: Cents): string {
  assertCents(cents);
  const magnitude = Math.abs(cents);
  const dollars = String(Math.trunc(magnitude / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${dollars}.${String(magnitude % 100).padStart(2, '0')}`;
}

/**
 * `numerator / denominator` rounded half up (half away from zero), in exact integer
 * arithmetic: 0.5 cent becomes 1 cent, as sales tax is rounded.
 */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}

/** Sums amounts of cents, refusing anything that is not a safe integer along the way. */
export function sumCents(amounts: Iterable<Cents>): Cents {
  let total = 0;
  for (const amount of amounts) {
    assertCents(amount);
    total += amount;
  }
  assertCents(total);
  return total;
}

function assertCents(cents: Cents): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${String(cents)} is not a whole number of cents`);
}
