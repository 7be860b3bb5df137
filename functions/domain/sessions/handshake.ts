import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { Forbidden, ProfileNotFound, ProfileNotLinked, ValidationFailed } from '../errors';
import type { Profile, ProfileId } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { ProfileIdentifier } from './handshake-request';
import type { SessionTokenId, SessionTokenRecord } from './session-records';
import type { SessionRepository } from './session-repository';
import { mintSecret, SESSION_TOKEN_LIFETIME_MS } from './session-token';

/** A freshly issued handshake token: the only moment the plaintext exists. */
export interface IssuedSession {
  readonly sessionKey: string;
  readonly token: SessionTokenRecord;
  readonly profile: Profile;
}

/**
 * POST /v1/partner/handshake: finds the partner's profile, checks it can sign in, and
 * issues a fresh single-use token. Every call mints a new one; nothing is reused or cached.
 */
export class Handshake {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * `admitted` resolves once the request may write (the caller's rate-limit count, which
   * runs while the profile is read) and throws if it may not: nothing is written before it.
   */
  async open(partnerId: PartnerId, identifier: ProfileIdentifier, admitted: () => Promise<void> = async () => undefined): Promise<IssuedSession> {
    const profile = await this.findProfile(partnerId, identifier);
    requireSignInAllowed(profile);
    await admitted();

    const now = this.clock.now();
    const { secret, hash } = mintSecret();
    const token: SessionTokenRecord = {
      id: randomUUID() as SessionTokenId,
      partnerId,
      profileId: profile.id,
      internalOrgId: profile.internalOrgId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TOKEN_LIFETIME_MS).toISOString(),
      state: 'issued',
    };
    await this.sessions.saveToken(token, hash);
    return { sessionKey: secret, token, profile };
  }

  private async findProfile(partnerId: PartnerId, identifier: ProfileIdentifier): Promise<Profile> {
    if (identifier.by === 'profile_id') {
      const profile = await this.organizations.getProfile(identifier.profileId as ProfileId);
      if (!profile) throw new ProfileNotFound(`No profile with profile_id ${identifier.profileId}`);
      // DESIGN.md "Other partner's resource": it exists, but not for this key.
      if (profile.partnerId !== partnerId) throw new Forbidden('This profile belongs to another partner');
      if (identifier.internalOrgId !== undefined && profile.internalOrgId !== identifier.internalOrgId) {
        throw new ProfileNotFound(`No profile with profile_id ${identifier.profileId} in organization ${identifier.internalOrgId}`);
      }
      return profile;
    }

    // With the organization named, one consistent read finds a profile created a moment ago;
    // without it only the partner-wide index can, which lags writes by a fraction of a second.
    const matches =
      identifier.internalOrgId === undefined
        ? await this.organizations.findProfilesByInternalUserId(partnerId, identifier.internalUserId)
        : [await this.organizations.getProfileInOrganization(partnerId, identifier.internalOrgId, identifier.internalUserId)].filter(
            (profile): profile is Profile => profile !== undefined,
          );
    const [only, ...others] = matches;
    if (!only) {
      const where = identifier.internalOrgId === undefined ? '' : ` in organization ${identifier.internalOrgId}`;
      throw new ProfileNotFound(`No profile with internal_user_id ${identifier.internalUserId}${where}`);
    }
    if (others.length > 0) {
      const orgs = matches.map((profile) => profile.internalOrgId).sort();
      throw new ValidationFailed(
        [
          {
            code: 'AMBIGUOUS_USER',
            message: `internal_user_id matches profiles in ${orgs.length} organizations (${orgs.join(', ')}); add internal_org_id to choose one`,
            path: ['internal_user_id'],
          },
        ],
        'Invalid request body',
      );
    }
    return only;
  }

}

/**
 * The profile alone says whether it can sign in: a profile is linked to its identity user
 * in the transaction that creates both, and disabling unlinks the profile in the same
 * transaction that disables the user, so a linked profile has an active user (one read
 * fewer on every handshake; the embed host still reads the user at redemption).
 */
function requireSignInAllowed(profile: Profile): void {
  if (profile.userId) return;
  throw new ProfileNotLinked(
    profile.unlinkedUserId ? "The profile's identity-provider user is disabled" : 'The profile is not linked to an identity-provider user',
  );
}
