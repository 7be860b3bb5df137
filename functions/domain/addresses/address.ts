/**
 * The contract's address object (`userAddress`, `billingAddress`,
 * `shippingLocations[].address`), normalized on the way in: province becomes the full
 * state name and country becomes "United States", which is how both are stored and
 * returned.
 */
// zod/mini: setup parses addresses at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { anyCase, documented } from '../documented-rules';
import { MAX_TEXT_LENGTH, optionalText, requiredField, requiredText, rule, type RuleCode } from '../validation';
import { normalizeUsState, US_STATES } from './us-states';

const SUPPORTED_COUNTRY = 'United States';

const COUNTRY_SPELLINGS: ReadonlySet<string> = new Set(['united states', 'us', 'usa', 'united states of america']);

/** A state's full name or abbreviation in any case, words one space apart (the server also collapses and trims spaces). */
const US_STATE_PATTERN = `^(?:${US_STATES.flatMap(({ name, abbreviation }) => [name, abbreviation])
  .map(anyCase)
  .join('|')})$`;
const COUNTRY_PATTERN = `^(?:${[...COUNTRY_SPELLINGS].map(anyCase).join('|')})?$`;

/** ZIP or ZIP+4 (docs/architecture.md, "US states"). */
const ZIP_CODE = /^\d{5}(?:-\d{4})?$/;

/** What the classic API's `ctx.addIssue` does in a transform (mini's context has no `addIssue`). */
const addIssue = (ctx: z.core.ParsePayload, code: RuleCode, reason: string): void => {
  ctx.issues.push({ code: 'custom', ...rule(code, reason), input: ctx.value });
};

const province = documented(
  z.pipe(
    requiredText(),
    z.transform((value: string, ctx) => {
      const state = normalizeUsState(value);
      if (state === undefined) {
        addIssue(
          ctx,
          'INVALID_US_STATE',
          'must be a US state or the District of Columbia, by full name or USPS abbreviation',
        );
        return z.NEVER;
      }
      return state;
    }),
  ),
  {
    pattern: US_STATE_PATTERN,
    description:
      'One of the 50 US states or the District of Columbia, by full name (`New York`) or USPS abbreviation (`NY`), in any case; stored and returned as the full name. The server also trims and collapses whitespace; the document wants words one space apart.',
  },
);

const postalCode = documented(
  requiredText().check(
    z.refine(
      // Blank is already reported as REQUIRED.
      (value: string) => value === '' || ZIP_CODE.test(value),
      rule('INVALID_POSTAL_CODE', 'must be a US ZIP code: 12345 or 12345-6789'),
    ),
  ),
  {
    pattern: '^[0-9]{5}(?:-[0-9]{4})?$',
    description:
      'A US ZIP code: `12345` or `12345-6789`. The server trims surrounding whitespace; the document does not allow it.',
  },
);

// Absent or blank means the default; any accepted spelling is stored in one form.
const country = documented(
  z.pipe(
    z.optional(z.string({ error: requiredField }).check(z.trim(), z.maxLength(MAX_TEXT_LENGTH))),
    z.transform((value: string | undefined, ctx): typeof SUPPORTED_COUNTRY => {
      const key = (value ?? '').replace(/\s+/g, ' ').toLowerCase();
      if (key === '' || COUNTRY_SPELLINGS.has(key)) return SUPPORTED_COUNTRY;
      addIssue(ctx, 'UNSUPPORTED_COUNTRY', 'is not supported. Only the United States is supported');
      return z.NEVER;
    }),
  ),
  {
    pattern: COUNTRY_PATTERN,
    description:
      'Only the United States: `United States`, `US`, `USA` or `United States of America`, in any case; absent or empty means `United States`, which is how it is stored and returned. The server also trims and collapses whitespace; the document wants words one space apart.',
  },
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
