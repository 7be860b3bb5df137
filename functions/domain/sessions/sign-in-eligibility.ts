import type { IdentityDirectory } from '../identity/identity-user';
import type { Profile } from '../organizations/organization';

/**
 * Why the profile may not sign in (contract: a profile must be linked to an
 * identity-provider user; DESIGN.md: a disabled or unlinked user counts as not linked),
 * or undefined when it may.
 */
export async function signInBlocker(identity: IdentityDirectory, profile: Profile): Promise<string | undefined> {
  if (!profile.userId) return profileSignInBlocker(profile);
  const user = await identity.getUser(profile.userId);
  if (!user) return 'The profile\'s identity-provider user does not exist';
  if (user.status !== 'active') return 'The profile\'s identity-provider user is disabled';
  return undefined;
}

/**
 * The same question answered from the profile alone, one read fewer: a profile is linked
 * to its identity user in the transaction that creates both, and `profile disable`
 * unlinks the profile in the same transaction that disables the user (and ends its
 * embedded sessions), so a linked profile has an active user (docs/decisions.md).
 */
export function profileSignInBlocker(profile: Profile): string | undefined {
  if (profile.userId) return undefined;
  return profile.unlinkedUserId ? "The profile's identity-provider user is disabled" : 'The profile is not linked to an identity-provider user';
}
