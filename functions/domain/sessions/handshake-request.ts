/**
 * The body of POST /v1/partner/handshake (contract: request table; docs/architecture.md,
 * "Handshake identifiers"): exactly one of `internal_user_id` and `profile_id`, plus an
 * optional `internal_org_id` to pick one of several organizations. Unknown fields are
 * ignored.
 *
 * Written with `zod/mini` (same issues as the classic API, a fraction of the size): the
 * handshake Lambda's bundle budget is 150 KB.
 */
import * as z from 'zod/mini';
import { documented, requiredTextRules, UUID_PATTERN } from '../documented-rules';
import { ValidationFailed } from '../errors';
import {
  CONTROL_CHARACTER,
  hasNoControlCharacters,
  INVALID_TEXT,
  isWellFormedText,
  MAX_TEXT_LENGTH,
  requiredField,
  rule,
  toValidationIssues,
} from '../validation-issues';

const IDENTIFIERS = ['internal_user_id', 'profile_id'] as const;

const text = () =>
  documented(
    z
      .string({ error: requiredField })
      .check(
        z.trim(),
        z.minLength(1),
        z.maxLength(MAX_TEXT_LENGTH),
        z.refine(isWellFormedText, INVALID_TEXT),
        z.refine(hasNoControlCharacters, CONTROL_CHARACTER),
      ),
    requiredTextRules(MAX_TEXT_LENGTH),
  );

/**
 * Exactly one of `internal_user_id` and `profile_id`: the rule of every body that names a
 * partner's user (the handshake, the sandbox order API).
 */
export const exactlyOneUserIdentifier = z.superRefine(
  (body: object, ctx) => {
    // Reads the (possibly half-parsed) body defensively: it also runs when a field failed on its own.
    const given = IDENTIFIERS.filter((name) => (body as Record<string, unknown>)[name] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        ...rule('IDENTIFIER_REQUIRED', 'must contain internal_user_id or profile_id'),
      });
    } else if (given.length === 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['profile_id'],
        ...rule('CONFLICTING_FIELDS', 'cannot be given together with internal_user_id: send exactly one of them'),
      });
    }
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);

/** The fields naming the user, shared by every body that names one. */
export const userIdentifierFields = {
  internal_user_id: z.optional(text()),
  // UUIDs are case-insensitive (RFC 9562); ours are stored in lower case.
  profile_id: documented(
    z.optional(z.pipe(z.string({ error: requiredField }).check(z.trim(), z.toLowerCase()), z.uuid())),
    {
      format: 'uuid',
      pattern: UUID_PATTERN,
      description:
        "The profile's `id` (a UUID, any case). The server trims surrounding whitespace; the document does not allow it.",
    },
  ),
  internal_org_id: z.optional(text()),
};

/** `exactlyOneUserIdentifier` in JSON Schema, for the object that holds `userIdentifierFields`. */
export const EXACTLY_ONE_USER_IDENTIFIER = {
  // `properties` repeated so strict validators (ajv's strictRequired) see each required name defined.
  oneOf: IDENTIFIERS.map((name) => ({ properties: { [name]: {} }, required: [name] })),
  description: 'Exactly one of `internal_user_id` and `profile_id`.',
};

export const HandshakeRequest = documented(
  z.object(userIdentifierFields, { error: requiredField }).check(exactlyOneUserIdentifier),
  EXACTLY_ONE_USER_IDENTIFIER,
);

/** The user to open a session for: by service profile id or by the partner's own user id. */
export type ProfileIdentifier =
  | { readonly by: 'profile_id'; readonly profileId: string; readonly internalOrgId?: string }
  | { readonly by: 'internal_user_id'; readonly internalUserId: string; readonly internalOrgId?: string };

export function parseHandshakeRequest(body: unknown): ProfileIdentifier {
  const parsed = HandshakeRequest.safeParse(body);
  if (!parsed.success) throw new ValidationFailed(toValidationIssues(parsed.error), 'Invalid request body');
  return toProfileIdentifier(parsed.data);
}

/** The identifier a parsed body names (exactly one of the two was checked). */
export function toProfileIdentifier(fields: {
  readonly internal_user_id?: string | undefined;
  readonly profile_id?: string | undefined;
  readonly internal_org_id?: string | undefined;
}): ProfileIdentifier {
  const { internal_user_id, profile_id, internal_org_id } = fields;
  const org = internal_org_id === undefined ? {} : { internalOrgId: internal_org_id };
  if (profile_id !== undefined) return { by: 'profile_id', profileId: profile_id, ...org };
  return { by: 'internal_user_id', internalUserId: internal_user_id as string, ...org };
}
