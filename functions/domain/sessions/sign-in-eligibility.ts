import type { IdentityDirectory } from '../identity/identity-user';
import type { Profile } from '../organizations/organization';

/**
 * Why the profile may not sign in (contract: a profile must be linked to an
 * identity-provider user; DESIGN.md: a disabled or unlinked user counts as not linked),
 * or undefined when it may.
 */
export async function signInBlocker(identity: IdentityDirectory, profile: Profile): Promise<string | undefined> {
  if (!profile.userId) return 'The profile is not linked to an identity-provider user';
  const user = await identity.getUser(profile.userId);
  if (!user) return 'The profile\'s identity-provider user does not exist';
  if (user.status !== 'active') return 'The profile\'s identity-provider user is disabled';
  return undefined;
}
