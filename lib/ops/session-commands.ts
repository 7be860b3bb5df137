/**
 * Operator commands for sessions, as pure functions of the dependencies (the CLI
 * registers them): `session list` and `session revoke`. Results are JSON documents that
 * never hold a session token, a cookie value or a hash of either.
 */
import { z } from 'zod';
import type { Dependencies } from '../../functions/container';
import { ValidationFailed } from '../../functions/domain/errors';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { SessionTokenSummary } from '../../functions/domain/sessions/session-admin';
import { toValidationIssues } from '../../functions/domain/validation';

const SessionListOptions = z.object({
  partner: z.uuid(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

const SessionRevokeOptions = z.object({
  partner: z.uuid(),
  profile: z.uuid(),
});

function parseOptions<S extends z.ZodType>(schema: S, options: unknown): z.output<S> {
  const parsed = schema.safeParse(options);
  if (!parsed.success) throw new ValidationFailed(toValidationIssues(parsed.error), 'Invalid options');
  return parsed.data;
}

export interface SessionListResult {
  readonly partnerId: string;
  /** Most recent handshakes first, with their state now: issued, used or expired. */
  readonly sessions: readonly SessionTokenSummary[];
}

/** `session list --partner ID [--limit N]`: the partner's recent handshake sessions. */
export async function listSessions(
  deps: Dependencies,
  options: { partner: string; limit?: number | string },
): Promise<SessionListResult> {
  const { partner, limit } = parseOptions(SessionListOptions, options);
  const sessions = await deps.sessionAdmin.listRecent(partner as PartnerId, limit);
  return { partnerId: partner, sessions };
}

export interface SessionRevokeResult {
  readonly partnerId: string;
  readonly profileId: string;
  /** The embedded sessions that were live and are now ended. */
  readonly revoked: readonly { readonly id: string; readonly createdAt: string; readonly lastSeenAt: string }[];
}

/**
 * `session revoke --partner ID --profile PROFILE_ID`: ends the user's live embedded
 * sessions; their next request gets the sign-in-again page. Tokens not yet redeemed
 * expire on their own within five minutes.
 */
export async function revokeSessions(
  deps: Dependencies,
  options: { partner: string; profile: string },
): Promise<SessionRevokeResult> {
  const { partner, profile } = parseOptions(SessionRevokeOptions, options);
  const ended = await deps.sessionAdmin.revokeProfileSessions(partner as PartnerId, profile as ProfileId);
  return {
    partnerId: partner,
    profileId: profile,
    revoked: ended.map((session) => ({ id: session.id, createdAt: session.createdAt, lastSeenAt: session.lastSeenAt })),
  };
}
