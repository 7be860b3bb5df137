/**
 * The contract's address object (`userAddress`, `billingAddress`,
 * `shippingLocations[].address`), normalized on the way in: province becomes the full
 * state name and country becomes "United States", which is how both are stored and
 * returned.
 */
// zod/mini: setup parses addresses at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { MAX_TEXT_LENGTH, optionalText, requiredField, requiredText, rule, type RuleCode } from '../validation';
import { normalizeUsState } from './us-states';

export const SUPPORTED_COUNTRY = 'United States';

const COUNTRY_SPELLINGS: ReadonlySet<string> = new Set(['united states', 'us', 'usa', 'united states of america']);

/** ZIP or ZIP+4 (DESIGN "US states"). */
const ZIP_CODE = /^\d{5}(?:-\d{4})?$/;

/** What the classic API's `ctx.addIssue` does in a transform (mini's context has no `addIssue`). */
const addIssue = (ctx: z.core.ParsePayload, code: RuleCode, reason: string): void => {
  ctx.issues.push({ code: 'custom', ...rule(code, reason), input: ctx.value });
};

const province = z.pipe(
  requiredText(),
  z.transform((value: string, ctx) => {
    const state = normalizeUsState(value);
    if (state === undefined) {
      addIssue(ctx, 'INVALID_US_STATE', 'must be a US state or the District of Columbia, by full name or USPS abbreviation');
      return z.NEVER;
    }
    return state;
  }),
);

const postalCode = requiredText().check(
  z.refine(
    // Blank is already reported as REQUIRED.
    (value: string) => value === '' || ZIP_CODE.test(value),
    rule('INVALID_POSTAL_CODE', 'must be a US ZIP code: 12345 or 12345-6789'),
  ),
);

// Absent or blank means the default; any accepted spelling is stored in one form.
const country = z.pipe(
  z.optional(z.string({ error: requiredField }).check(z.trim(), z.maxLength(MAX_TEXT_LENGTH))),
  z.transform((value: string | undefined, ctx): typeof SUPPORTED_COUNTRY => {
    const key = (value ?? '').replace(/\s+/g, ' ').toLowerCase();
    if (key === '' || COUNTRY_SPELLINGS.has(key)) return SUPPORTED_COUNTRY;
    addIssue(ctx, 'UNSUPPORTED_COUNTRY', 'is not supported. Only the United States is supported');
    return z.NEVER;
  }),
);

export const AddressInput = z.object(
  {
    line1: requiredText(),
    line2: optionalText(),
    city: requiredText(),
    province,
    postalCode,
    country,
  },
  { error: requiredField },
);

export type Address = z.output<typeof AddressInput>;
