import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { Forbidden, NotFound } from '../errors';
import type { IdentityDirectory, IdentityUser } from '../identity/identity-user';
import type { PartnerId } from '../partners/partner';
import type { PartnerRepository } from '../partners/partner-repository';
import type { SessionRepository } from '../sessions/session-repository';
import type { Profile, ProfileId, UserId } from './organization';
import type { OrganizationRepository } from './organization-repository';

export interface ProfileDisabled {
  readonly profile: Profile;
  /** The identity user this call disabled; undefined when the profile was unlinked already. */
  readonly disabledUserId?: UserId;
  readonly alreadyDisabled: boolean;
  /** Live embedded sessions of the profile this call ended. */
  readonly endedSessions: number;
}

export interface ProfileEnabled {
  readonly profile: Profile;
  /** The identity user the profile is linked to, active. */
  readonly enabledUserId: UserId;
  readonly alreadyEnabled: boolean;
}

/**
 * Operator use cases for one profile's access (operator CLI): `profile disable` unlinks
 * it from its identity user and disables that user, so handshakes and sessions refuse
 * it; `profile enable` links it again and re-enables the user. Both are idempotent, and
 * both refuse another partner's profile (Forbidden, as on the handshake).
 */
export class ProfileAdmin {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly organizations: OrganizationRepository,
    private readonly identity: IdentityDirectory,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Also ends the profile's live embedded sessions: they are refused while the profile
   * is unlinked anyway, and ending them means a later `enable` cannot revive them.
   */
  async disable(partnerId: PartnerId, profileId: ProfileId): Promise<ProfileDisabled> {
    const profile = await this.requireOwnProfile(partnerId, profileId);
    const now = this.clock.now();
    const unlinked = profile.userId ? await this.organizations.unlinkProfile(profile.id, now) : profile;
    const ended = await this.sessions.endEmbeddedSessionsOfProfile(partnerId, profile.id, now, 'revoked');
    return {
      profile: unlinked,
      ...(profile.userId ? { disabledUserId: profile.userId } : {}),
      alreadyDisabled: !profile.userId,
      endedSessions: ended.length,
    };
  }

  /**
   * Links the profile to the identity user it had before `disable` and makes that user
   * active again. A profile unlinked before its user's id was kept gets a new identity
   * user instead. A linked profile with an active user is left as it is.
   */
  async enable(partnerId: PartnerId, profileId: ProfileId): Promise<ProfileEnabled> {
    const profile = await this.requireOwnProfile(partnerId, profileId);
    const userId = profile.userId ?? profile.unlinkedUserId;
    const existing = userId ? await this.identity.getUser(userId) : undefined;
    if (profile.userId && existing?.status === 'active')
      return { profile, enabledUserId: profile.userId, alreadyEnabled: true };

    const now = this.clock.now();
    const user: IdentityUser = {
      id: existing?.id ?? (randomUUID() as UserId),
      partnerId,
      profileId: profile.id,
      email: existing?.email ?? profile.email,
      status: 'active',
      createdAt: existing?.createdAt ?? now.toISOString(),
    };
    // A profile still linked to a disabled user is unlinked first, so the relink's condition holds.
    const unlinked = profile.userId ? await this.organizations.unlinkProfile(profile.id, now) : profile;
    const relinked = await this.organizations.relinkProfile(unlinked, user, now);
    return { profile: relinked, enabledUserId: user.id, alreadyEnabled: false };
  }

  private async requireOwnProfile(partnerId: PartnerId, profileId: ProfileId): Promise<Profile> {
    if (!(await this.partners.getPartner(partnerId))) throw new NotFound(`No partner ${partnerId}`);
    const profile = await this.organizations.getProfile(profileId);
    if (!profile) throw new NotFound(`No profile ${profileId}`);
    if (profile.partnerId !== partnerId) throw new Forbidden(`Profile ${profile.id} belongs to another partner`);
    return profile;
  }
}
