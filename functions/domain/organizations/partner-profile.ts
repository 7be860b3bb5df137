import { Forbidden, ProfileNotFound, ValidationFailed } from '../errors';
import type { PartnerId } from '../partners/partner';
import type { ProfileIdentifier } from '../sessions/handshake-request';
import type { Profile, ProfileId } from './organization';
import type { OrganizationRepository } from './organization-repository';

/**
 * The partner's profile a request names (the handshake, the sandbox order API), by the
 * same rules everywhere (docs/architecture.md, "Handshake identifiers"; docs/decisions.md "Handshake
 * ambiguity and `internal_org_id`"):
 * - `profile_id`: another partner's is Forbidden; with `internal_org_id`, a profile of
 *   another organization is ProfileNotFound;
 * - `internal_user_id`: with `internal_org_id` one consistent read; without it the
 *   partner-wide index, and a user id found in several organizations is a 400
 *   `AMBIGUOUS_USER` naming them.
 */
export async function findPartnerProfile(
  organizations: OrganizationRepository,
  partnerId: PartnerId,
  identifier: ProfileIdentifier,
): Promise<Profile> {
  if (identifier.by === 'profile_id') {
    const profile = await organizations.getProfile(identifier.profileId as ProfileId);
    if (!profile) throw new ProfileNotFound(`No profile with profile_id ${identifier.profileId}`);
    // docs/architecture.md, "Other partner's resource": it exists, but not for this key.
    if (profile.partnerId !== partnerId) throw new Forbidden('This profile belongs to another partner');
    if (identifier.internalOrgId !== undefined && profile.internalOrgId !== identifier.internalOrgId) {
      throw new ProfileNotFound(
        `No profile with profile_id ${identifier.profileId} in organization ${identifier.internalOrgId}`,
      );
    }
    return profile;
  }

  // With the organization named, one consistent read finds a profile created a moment ago;
  // without it only the partner-wide index can, which lags writes by a fraction of a second.
  const matches =
    identifier.internalOrgId === undefined
      ? await organizations.findProfilesByInternalUserId(partnerId, identifier.internalUserId)
      : [
          await organizations.getProfileInOrganization(partnerId, identifier.internalOrgId, identifier.internalUserId),
        ].filter((profile): profile is Profile => profile !== undefined);
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
