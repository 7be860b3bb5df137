/**
 * Operator commands for sessions, as pure functions of the dependencies, and their CLI
 * registration (`sessionCommands`): `session list` and `session revoke`. Results are JSON
 * documents that never hold a session token, a cookie value or a hash of either.
 */
import { z } from 'zod';
import type { Dependencies } from '../../functions/container';
import { ValidationFailed } from '../../functions/domain/errors';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { SessionTokenSummary } from '../../functions/domain/sessions/session-admin';
import { toValidationIssues } from '../../functions/domain/validation';
import { fieldLines, NONE, tableLines } from './human-format';
import { type CommandTable, defineCommand } from './ops-command';
import { limitOption, partnerOption, profileOption } from './option-schemas';

const MAX_LIMIT = 500;
const DEFAULT_LIMIT = 50;

const SessionListOptions = z.object({
  partner: z.uuid(),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
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

export const sessionCommands: CommandTable = {
  'session list': defineCommand({
    summary: "List a partner's recent handshakes, newest first: issued, used or expired (never a token)",
    options: {
      partner: partnerOption,
      limit: {
        schema: limitOption(MAX_LIMIT).optional(),
        placeholder: 'N',
        description: `How many, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT})`,
      },
    },
    async run(deps, options) {
      const result = await listSessions(deps, options);
      return {
        json: result,
        text:
          result.sessions.length === 0
            ? [`No recent handshakes for partner ${result.partnerId}.`]
            : tableLines(
                ['SESSION ID', 'PROFILE ID', 'ORGANIZATION', 'STATE', 'CREATED', 'EXPIRES', 'USED'],
                result.sessions.map((s) => [
                  s.id,
                  s.profileId,
                  s.internalOrgId,
                  s.state,
                  s.createdAt,
                  s.expiresAt,
                  s.usedAt ?? NONE,
                ]),
              ),
      };
    },
  }),

  'session revoke': defineCommand({
    summary: "End a user's live embedded sessions; their next request gets the sign-in-again page",
    options: { partner: partnerOption, profile: profileOption },
    async run(deps, options) {
      const result = await revokeSessions(deps, options);
      return {
        json: result,
        text: [
          ...fieldLines([
            ['partnerId', result.partnerId],
            ['profileId', result.profileId],
            ['revoked', String(result.revoked.length)],
          ]),
          ...(result.revoked.length === 0
            ? []
            : [
                '',
                ...tableLines(
                  ['SESSION ID', 'CREATED', 'LAST SEEN'],
                  result.revoked.map((s) => [s.id, s.createdAt, s.lastSeenAt]),
                ),
              ]),
          '',
          'Links not yet opened expire within 5 minutes; to block the user for good, run profile disable.',
        ],
      };
    },
  }),
};
