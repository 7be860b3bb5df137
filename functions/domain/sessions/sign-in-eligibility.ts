import type { IdentityDirectory } from '../identity/identity-user';
import { isActive, type Profile } from '../organizations/organization';

/** The partner deactivated the user (PATCH `active: false`); the same refusal as an unlinked profile. */
const DEACTIVATED = 'The profile was deactivated by its organization';

/**
 * Why the profile may not sign in (contract: a profile must be linked to an
 * identity-provider user; docs/architecture.md, "Identity provider": a disabled or unlinked user counts as not linked),
 * or undefined when it may.
 */
export async function signInBlocker(identity: IdentityDirectory, profile: Profile): Promise<string | undefined> {
  if (!isActive(profile)) return DEACTIVATED;
  if (!profile.userId) return profileSignInBlocker(profile);
  const user = await identity.getUser(profile.userId);
  if (!user) return "The profile's identity-provider user does not exist";
  if (user.status !== 'active') return "The profile's identity-provider user is disabled";
  return undefined;
}

/**
 * The same question answered from the profile alone, one read fewer: a profile is linked
 * to its identity user in the transaction that creates both, and `profile disable`
 * unlinks the profile in the same transaction that disables the user (and ends its
 * embedded sessions), so a linked profile has an active user (docs/decisions.md). The
 * partner's `active` flag is on the profile itself.
 */

/**
 * Whether a handshake link or session made at `createdAt` predates the profile's last
 * deactivation: those stay dead after the partner reactivates the user.
 */
export const predatesDeactivation = (profile: Profile, createdAt: string): boolean =>
  profile.deactivatedAt !== undefined && createdAt <= profile.deactivatedAt;
export function profileSignInBlocker(profile: Profile): string | undefined {
  if (!isActive(profile)) return DEACTIVATED;
  if (profile.userId) return undefined;
  return profile.unlinkedUserId
    ? "The profile's identity-provider user is disabled"
    : 'The profile is not linked to an identity-provider user';
}
