/**
 * The shared field rules of request schemas. The contract's `details` shape and the
 * issue codes live in `validation-issues.ts`.
 */
// zod/mini: setup's cold start parses with these, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { documented, emailRules, optionalTextRules, requiredTextRules } from './documented-rules';
import {
  CONTROL_CHARACTER,
  hasNoControlCharacters,
  INVALID_TEXT,
  isWellFormedText,
  MAX_EMAIL_LENGTH,
  MAX_TEXT_LENGTH,
  requiredField,
} from './validation-issues';

export * from './validation-issues';

const wellFormed = () =>
  [
    z.refine<string>(isWellFormedText, INVALID_TEXT),
    z.refine<string>(hasNoControlCharacters, CONTROL_CHARACTER),
  ] as const;

/** Blank (after trimming) counts as not given. */
const blankAsAbsent = () => z.transform((value: string) => (value === '' ? undefined : value));

/**
 * A required string: trimmed, not blank, at most `max` characters. Not `abort: true` on
 * the blank check: an explicit abort would also silence the cross-field rules that run
 * with `when` further up (duplicate ids, several defaults).
 */
export const requiredText = (max = MAX_TEXT_LENGTH) =>
  documented(
    z.string({ error: requiredField }).check(z.trim(), z.minLength(1), z.maxLength(max), ...wellFormed()),
    requiredTextRules(max),
  );

/** An optional string: trimmed, at most `max` characters; blank counts as not given. */
export const optionalText = (max = MAX_TEXT_LENGTH) =>
  documented(
    z.optional(
      z.pipe(z.string({ error: requiredField }).check(z.trim(), z.maxLength(max), ...wellFormed()), blankAsAbsent()),
    ),
    optionalTextRules(max),
  );

/** A required email address: trimmed, at most 254 characters, valid format. */
export const requiredEmail = () => documented(z.pipe(requiredText(MAX_EMAIL_LENGTH), z.email()), emailRules(false));

/** An optional email address; blank counts as not given. */
export const optionalEmail = () =>
  documented(
    z.optional(
      z.pipe(
        z.pipe(z.string({ error: requiredField }).check(z.trim(), z.maxLength(MAX_EMAIL_LENGTH)), blankAsAbsent()),
        z.optional(z.email()),
      ),
    ),
    emailRules(true),
  );
