/**
 * The request rules as JSON Schema keywords, attached to the very zod schemas that
 * enforce them, so the partner API document (docs/openapi.json) is as strict as the
 * handlers: a request valid against the document is never refused with a validation
 * error (test/contract/generated-requests.test.ts sends such requests).
 *
 * Where the server first trims or accepts case and spacing variants, a pattern may be a
 * little stricter than the server, never looser; the field's description says so.
 *
 * Patterns are ECMA-262 with Unicode (`u` flag) semantics, as ajv and the JSON Schema
 * tools of other languages read them, and avoid `\s` (Python's and JavaScript's differ):
 * whitespace is spelled out as `String.prototype.trim` knows it.
 */
// zod/mini: on the Lambdas' paths (registering metadata is a Map entry, no code from the classic API).
import * as z from 'zod/mini';
import { MAX_TEXT_LENGTH } from './validation-issues';
import { INVOICE_ID } from './billing/invoice';

/** C0 controls, DEL, C1 controls, bidi overrides and isolates, lone surrogates (see `validation-issues.ts`). */
const UNSAFE = String.raw`\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF`;
/** What `trim()` removes and is not already UNSAFE. */
const TRIMMED_SPACE = String.raw` \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF`;

/** Any text without control or bidi-override characters (may be blank). */
const SAFE_TEXT_PATTERN = `^[^${UNSAFE}]*$`;
/** The same, with at least one character that trimming keeps. */
const NON_BLANK_TEXT_PATTERN = `^[^${UNSAFE}]*[^${TRIMMED_SPACE}${UNSAFE}][^${UNSAFE}]*$`;

/**
 * The server counts a string's length in UTF-16 code units, JSON Schema in characters:
 * a character outside the Basic Multilingual Plane (an emoji) is two units. A text
 * holding one is held to half the limit in characters, which never lets through what
 * the server refuses.
 */
const withinUtf16Length = (max: number) => ({
  not: { pattern: String.raw`[^\u0000-\uFFFF]`, minLength: Math.floor(max / 2) + 1 },
});

const TEXT_RULE =
  'No control characters (C0, DEL, C1) or bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069). Trimmed before the checks; the length counts UTF-16 code units (an emoji counts two).';

export const requiredTextRules = (max: number) => ({
  pattern: NON_BLANK_TEXT_PATTERN,
  ...withinUtf16Length(max),
  description: TEXT_RULE,
});

export const optionalTextRules = (max: number) => ({
  pattern: SAFE_TEXT_PATTERN,
  ...withinUtf16Length(max),
  description: `${TEXT_RULE} Blank counts as not given.`,
});

const PORT = '(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
/** A DNS label as zod's `z.regexes.domain` has it; not `xn--`, which the URL parser refuses unless it is valid punycode. */
const LABEL = '(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * An https URL whose host is a public-looking name (no IP address, no credentials), as
 * `transition-input.ts`'s `isHttpsUrl` accepts it, written as the URL parser would
 * leave it: a lower-case scheme, a host name of at most 253 characters, an optional
 * port, and a path, query or fragment without whitespace.
 */
export const HTTPS_URL_PATTERN = `^https://(?=[^:/?#]{1,253}(?:[:/?#]|$))(?:${LABEL}\\.)+[A-Za-z]{2,63}(?::${PORT})?(?:[/?#][^${TRIMMED_SPACE}${UNSAFE}]*)?$`;

/** The server's email rule (zod's `z.email()`): ASCII local part of letters, digits and `_'+-.`, a dotted domain. */
export const emailRules = (optional: boolean) => ({
  format: 'email',
  pattern: z.regexes.email.source,
  description: `An email address: letters, digits and \`_'+-.\` before the \`@\` (no leading, trailing or double dot), a domain with a 2+ letter top level.${optional ? ' Blank counts as not given.' : ''} The server trims surrounding whitespace; the document does not allow it.`,
});

/** The longest partner id in UTF-16 code units, as setup takes it (`MAX_TEXT_LENGTH`). */
export const MAX_PARTNER_ID_LENGTH = MAX_TEXT_LENGTH;
/** A UUID's length in its 8-4-4-4-12 form. */
const UUID_LENGTH = 36;

/** A UUID as zod's `z.uuid()` accepts it (RFC 9562 variant, versions 1-8, the nil and max UUIDs). */
export const UUID_PATTERN = String(z.regexes.uuid()).slice(1, -1);
/** `inv_` and 32 hex digits (functions/domain/billing/invoice.ts). */
const INVOICE_ID_PATTERN = INVOICE_ID.source;
const INVOICE_ID_LENGTH = 36;
export const LOWER_CASE_UUID_PATTERN = UUID_PATTERN.replace(/a-fA-F/g, 'a-f').replace('89abAB', '89ab');

/**
 * Letter by letter in either case: JSON Schema patterns take no flags, and `(?i)`
 * exists in neither ECMA-262 nor most validators.
 */
export const anyCase = (text: string): string =>
  [...text]
    .map((character) =>
      /[a-z]/i.test(character) ? `[${character.toUpperCase()}${character.toLowerCase()}]` : character,
    )
    .join('');

/**
 * The path parameters' rules, in one place: the document states them, and the pipeline
 * checks them before any read (a value breaking them is a 400 or 404, never a DynamoDB
 * error). The limits are the ones setup holds the same ids to.
 */
export const PATH_PARAMETER_RULES = {
  /** Your own ids: `internalOrgId`, `internalUserId`, `internalShippingLocationId`. */
  partnerId: { ...requiredTextRules(MAX_PARTNER_ID_LENGTH), minLength: 1, maxLength: MAX_PARTNER_ID_LENGTH },
  /** The ids we issue (orders, approval requests, deliveries): a UUID in either case. */
  uuid: { format: 'uuid', pattern: UUID_PATTERN, minLength: UUID_LENGTH, maxLength: UUID_LENGTH },
  /** An invoice's id: `inv_` and 32 lower-case hex digits (its order's UUID without dashes). */
  invoiceId: { pattern: INVOICE_ID_PATTERN, minLength: INVOICE_ID_LENGTH, maxLength: INVOICE_ID_LENGTH },
} as const;

/**
 * A dollar amount above 0. "At most two decimals" is said in words, not as
 * `multipleOf: 0.01`: validators judge that in binary floating point (19.99 / 0.01 is
 * 1998.9999999999998), so ajv and Prism refused about one valid amount in six. No JSON
 * Schema keyword can say "two decimals" of a float, so this one rule is the document's
 * looser than the server (400 `INVALID_AMOUNT`); every amount the server takes passes it.
 */
export const dollarRules = (maximum: number, description: string) => ({
  exclusiveMinimum: 0,
  maximum,
  description: `${description} At most two decimals, as the number is written (\`19.99\`); more are refused with \`INVALID_AMOUNT\`.`,
});

/** Metadata the document generator merges into the schema's JSON Schema (`lib/api-docs/json-schema.ts`). */
export function documented<Schema extends z.core.$ZodType>(schema: Schema, keywords: Record<string, unknown>): Schema {
  z.globalRegistry.add(schema, keywords as z.core.GlobalMeta);
  return schema;
}
