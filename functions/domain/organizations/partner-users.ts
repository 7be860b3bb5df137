import type { Clock } from '../clock';
import { OrganizationNotFound, ProfileNotFound } from '../errors';
import type { PartnerId } from '../partners/partner';
import type { SessionRepository } from '../sessions/session-repository';
import type { ProfileUpdate } from './change-requests';
import type { Profile } from './organization';
import type { AttributeChanges, OrganizationRepository } from './organization-repository';
import { retryOnContention } from './retry-on-contention';

/**
 * The partner's own view and control of one user (profile) of its organization:
 * GET and PATCH /v1/organizations/{internalOrgId}/users/{internalUserId} (docs/setup.md).
 * Organizations are keyed by partner, so another partner's is simply not found.
 */
export class PartnerUsers {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  async get(partnerId: PartnerId, internalOrgId: string, internalUserId: string): Promise<Profile> {
    return this.requireProfile(partnerId, internalOrgId, internalUserId);
  }

  /**
   * 1. the profile must exist in the partner's organization (OrganizationNotFound, ProfileNotFound);
   * 2. only the attributes given are written, in one transaction over the profile's items
   *    (so concurrent changes of other fields are all kept), retried when it meets another;
   * 3. `active: false` also records when, and ends the user's live embedded sessions: their
   *    next request is refused (the profile is read on every page), as is any handshake
   *    link issued before (redemption compares it with `deactivatedAt`).
   */
  async update(
    partnerId: PartnerId,
    internalOrgId: string,
    internalUserId: string,
    update: ProfileUpdate,
  ): Promise<Profile> {
    const profile = await this.requireProfile(partnerId, internalOrgId, internalUserId);
    const now = this.clock.now();
    const changes = profileChanges(update, now);
    const updated = await retryOnContention(() => this.organizations.updateProfile(profile, changes));
    if (update.active === false)
      await this.sessions.endEmbeddedSessionsOfProfile(partnerId, profile.id, now, 'revoked');
    return updated;
  }

  private async requireProfile(partnerId: PartnerId, internalOrgId: string, internalUserId: string): Promise<Profile> {
    const profile = await this.organizations.getProfileInOrganization(partnerId, internalOrgId, internalUserId);
    if (profile) return profile;
    if (!(await this.organizations.getOrganization(partnerId, internalOrgId)))
      throw new OrganizationNotFound(partnerId, internalOrgId);
    throw new ProfileNotFound(`No user with internalUserId "${internalUserId}" in organization "${internalOrgId}"`);
  }
}

/** The PATCH body as attribute changes: absent fields untouched, `null` removes. */
function profileChanges(update: ProfileUpdate, now: Date): AttributeChanges<Profile> {
  const set: { -readonly [K in keyof Profile]?: Profile[K] } = {};
  const remove: (keyof Profile)[] = [];
  const { user } = update;
  if (user?.firstName !== undefined) set.firstName = user.firstName;
  if (user?.lastName !== undefined) set.lastName = user.lastName;
  if (user?.email !== undefined) set.email = user.email;
  if (user?.phoneNumber === null) remove.push('phoneNumber');
  else if (user?.phoneNumber !== undefined) set.phoneNumber = user.phoneNumber;
  if (update.role !== undefined) set.role = update.role;
  if (update.orderLimit === null) remove.push('orderLimitCents');
  else if (update.orderLimit !== undefined) set.orderLimitCents = update.orderLimit;
  if (update.monthlyLimit === null) remove.push('monthlyLimitCents');
  else if (update.monthlyLimit !== undefined) set.monthlyLimitCents = update.monthlyLimit;
  if (update.active !== undefined) set.active = update.active;
  if (update.active === false) set.deactivatedAt = now.toISOString();
  return { set, remove };
}
