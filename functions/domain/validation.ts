/**
 * The shared field rules of request schemas (classic zod API, used by setup). The
 * contract's `details` shape and the issue codes live in `validation-issues.ts`.
 */
import { z } from 'zod';
import { INVALID_TEXT, isWellFormedText, MAX_EMAIL_LENGTH, MAX_TEXT_LENGTH, requiredField } from './validation-issues';

export * from './validation-issues';


const wellFormed = [isWellFormedText, INVALID_TEXT] as const;

/**
 * A required string: trimmed, not blank, at most `max` characters. Not `abort: true` on
 * the blank check: an explicit abort would also silence the cross-field rules that run
 * with `when` further up (duplicate ids, several defaults).
 */
export const requiredText = (max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: requiredField })
    .trim()
    .min(1)
    .max(max)
    .refine(...wellFormed);

/** An optional string: trimmed, at most `max` characters; blank counts as not given. */
export const optionalText = (max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: requiredField })
    .trim()
    .max(max)
    .refine(...wellFormed)
    .transform((value) => (value === '' ? undefined : value))
    .optional();

/** A required email address: trimmed, at most 254 characters, valid format. */
export const requiredEmail = () => requiredText(MAX_EMAIL_LENGTH).pipe(z.email());

/** An optional email address; blank counts as not given. */
export const optionalEmail = () =>
  z
    .string({ error: requiredField })
    .trim()
    .max(MAX_EMAIL_LENGTH)
    .transform((value) => (value === '' ? undefined : value))
    .pipe(z.email().optional())
    .optional();

