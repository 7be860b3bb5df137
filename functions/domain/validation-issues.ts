/**
 * Validation problems in the contract's `details` shape, and the one place zod's issues
 * become them, so every endpoint reports the same codes for the same mistakes.
 *
 * Codes (stable: partners may branch on them):
 *
 * | code                       | when                                                                      |
 * |----------------------------|---------------------------------------------------------------------------|
 * | REQUIRED                   | a required field is missing, or a required string is blank after trimming |
 * | INVALID_TYPE               | wrong JSON type (e.g. a number where a string belongs, `null`)            |
 * | INVALID_EMAIL              | not a valid email address                                                 |
 * | INVALID_UUID               | not a UUID                                                                |
 * | INVALID_FORMAT             | any other string format or pattern                                        |
 * | TOO_LONG                   | string longer than its limit (256; emails 254)                            |
 * | TOO_SHORT                  | string shorter than a minimum above 1                                     |
 * | TOO_MANY_ITEMS             | array longer than its limit (shippingLocations: 50)                       |
 * | TOO_FEW_ITEMS              | array shorter than its minimum                                            |
 * | TOO_BIG / TOO_SMALL        | number out of range                                                       |
 * | INVALID_TEXT               | a string holds an unpaired UTF-16 surrogate (not valid Unicode)           |
 * | CONTROL_CHARACTER          | a string holds a control (C0, DEL, C1) or bidi-override character         |
 * | INVALID_US_STATE           | province is not one of the 50 states or DC                                |
 * | INVALID_TIME_ZONE          | timeZone is not an IANA time zone name this service knows                 |
 * | INVALID_POSTAL_CODE        | postalCode is not `12345` or `12345-6789`                                 |
 * | UNSUPPORTED_COUNTRY        | country is not the United States                                          |
 * | MULTIPLE_DEFAULT_LOCATIONS | a second (or later) shipping location has `isDefault: true`               |
 * | DUPLICATE_ID               | an identifier repeats one given earlier in the same request (or file)     |
 * | INVALID_AMOUNT             | not a US dollar amount with at most two decimals                          |
 * | INVALID_TAX_CODE           | a catalog product's tax_code is not a Stripe tax code (`txcd_` + 8 digits) |
 * | NO_CHANGES                 | a PATCH body that names no field to change                                |
 * | UNKNOWN_FIELD              | a field a strict schema does not allow                                    |
 * | IDENTIFIER_REQUIRED        | handshake: neither internal_user_id nor profile_id                        |
 * | CONFLICTING_FIELDS         | handshake: both internal_user_id and profile_id                           |
 * | AMBIGUOUS_USER             | handshake: internal_user_id in several organizations, no internal_org_id  |
 * | INVALID_VALUE              | anything else (enum values, custom rules without a code)                  |
 */
// Types only: this module is on the handshake's path, which must not bundle zod's classic API.
import type {
  $ZodError,
  $ZodErrorMap,
  $ZodIssue,
  $ZodIssueInvalidType,
  $ZodIssueTooBig,
  $ZodIssueTooSmall,
} from 'zod/v4/core';

export interface ValidationIssue {
  code: string;
  message: string;
  /** Array indexes appear as strings, e.g. ["shippingLocations", "0", "address", "province"]. */
  path: string[];
}

/** Codes raised by the domain's own rules (the rest derive from zod's issue kinds). */
export type RuleCode =
  | 'INVALID_TEXT'
  | 'CONTROL_CHARACTER'
  | 'INVALID_US_STATE'
  | 'INVALID_POSTAL_CODE'
  | 'INVALID_TIME_ZONE'
  | 'UNSUPPORTED_COUNTRY'
  | 'MULTIPLE_DEFAULT_LOCATIONS'
  | 'DUPLICATE_ID'
  | 'INVALID_AMOUNT'
  | 'INVALID_TAX_CODE'
  | 'NO_CHANGES'
  | 'IDENTIFIER_REQUIRED'
  | 'CONFLICTING_FIELDS';

/**
 * Zod's final issues do not carry the input (unless parsed with `reportInput`), so a
 * missing key and an explicit `null` would look alike. `requiredField`, set as the
 * `error` of every schema that can be required, tags the missing case with this message
 * while the input is still visible; `toValidationIssues` turns it into REQUIRED.
 */
const MISSING_MESSAGE = 'is required';

export const requiredField: $ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? MISSING_MESSAGE : undefined;

/**
 * Parameters for a domain rule's issue (`refine` params, or spread into `ctx.addIssue`
 * with `code: 'custom'`). `reason` reads after the field's name: "is not ...", "must ...".
 */
export const rule = (code: RuleCode, reason: string) => ({ message: reason, params: { code } });

/** docs/architecture.md, "Size limits": strings over 256 characters (emails 254) are rejected. */
export const MAX_TEXT_LENGTH = 256;
export const MAX_EMAIL_LENGTH = 254;

/**
 * JSON can carry an unpaired surrogate (`"\ud800"`), which no UTF-8 store or API can
 * represent: DynamoDB would silently replace it and Stripe's form encoding throws. Such
 * text is refused at the edge with a path, never half-stored or a 500.
 */
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;
export const isWellFormedText = (value: string): boolean => !UNPAIRED_SURROGATE.test(value);
export const INVALID_TEXT = rule('INVALID_TEXT', 'must be valid Unicode text (it holds an unpaired surrogate)');

/**
 * Every text field is a single line shown to people (names, addresses, ids in the
 * operator CLI and e-mails): C0 controls (NUL, ESC, newlines, tabs inside the value),
 * DEL, C1 controls and the bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069)
 * can only forge or hide what an operator or a partner's user reads.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARACTER = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
export const hasNoControlCharacters = (value: string): boolean => !UNSAFE_CHARACTER.test(value);
export const CONTROL_CHARACTER = rule(
  'CONTROL_CHARACTER',
  'must not contain control or bidirectional-override characters',
);

export function toValidationIssues(error: $ZodError): ValidationIssue[] {
  return error.issues.map(toValidationIssue);
}

function toValidationIssue(issue: $ZodIssue): ValidationIssue {
  const path = issue.path.map((key) => String(key));
  const field = fieldLabel(issue.path);
  const { code, reason } = describe(issue);
  return { code, message: `${field} ${reason}`, path };
}

function describe(issue: $ZodIssue): { code: string; reason: string } {
  switch (issue.code) {
    case 'invalid_type':
      if (isMissing(issue)) return { code: 'REQUIRED', reason: 'is required' };
      return { code: 'INVALID_TYPE', reason: `must be ${typeName(issue.expected)}` };
    case 'too_small':
      return describeTooSmall(issue);
    case 'too_big':
      return describeTooBig(issue);
    case 'invalid_format':
      if (issue.format === 'email') return { code: 'INVALID_EMAIL', reason: 'must be a valid email address' };
      if (issue.format === 'uuid' || issue.format === 'guid') return { code: 'INVALID_UUID', reason: 'must be a UUID' };
      return { code: 'INVALID_FORMAT', reason: 'has an invalid format' };
    case 'invalid_value':
      return {
        code: 'INVALID_VALUE',
        reason: `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`,
      };
    case 'unrecognized_keys':
      return { code: 'UNKNOWN_FIELD', reason: `has unknown fields: ${issue.keys.join(', ')}` };
    case 'custom': {
      const ruleCode: unknown = issue.params?.code;
      if (typeof ruleCode === 'string' && /^[A-Z][A-Z0-9_]*$/.test(ruleCode)) {
        return { code: ruleCode, reason: issue.message };
      }
      return {
        code: 'INVALID_VALUE',
        reason: issue.message === 'Invalid input' ? 'is invalid' : `is invalid: ${issue.message}`,
      };
    }
    default:
      return { code: 'INVALID_VALUE', reason: 'is invalid' };
  }
}

function isMissing(issue: $ZodIssueInvalidType): boolean {
  if ('input' in issue) return issue.input === undefined;
  return issue.message === MISSING_MESSAGE;
}

function describeTooSmall(issue: $ZodIssueTooSmall): { code: string; reason: string } {
  const min = Number(issue.minimum);
  switch (issue.origin) {
    case 'string':
      // Required strings are trimmed then checked for min 1: blank means not given.
      if (min <= 1) return { code: 'REQUIRED', reason: 'must not be blank' };
      return { code: 'TOO_SHORT', reason: `must be at least ${min} characters` };
    case 'array':
    case 'set':
      return { code: 'TOO_FEW_ITEMS', reason: `must have at least ${min} item${min === 1 ? '' : 's'}` };
    default:
      return { code: 'TOO_SMALL', reason: `must be at least ${String(issue.minimum)}` };
  }
}

function describeTooBig(issue: $ZodIssueTooBig): { code: string; reason: string } {
  const max = Number(issue.maximum);
  switch (issue.origin) {
    case 'string':
      return { code: 'TOO_LONG', reason: `must be at most ${max} characters` };
    case 'array':
    case 'set':
      return { code: 'TOO_MANY_ITEMS', reason: `must have at most ${max} item${max === 1 ? '' : 's'}` };
    default:
      return { code: 'TOO_BIG', reason: `must be at most ${String(issue.maximum)}` };
  }
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeName(expected: string): string {
  return Object.hasOwn(TYPE_NAMES, expected) ? (TYPE_NAMES[expected] as string) : `of type ${expected}`;
}

/** "shippingLocations[0].address.province"; the body itself when the path is empty. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'request body';
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      return index === 0 ? name : `.${name}`;
    })
    .join('');
}
