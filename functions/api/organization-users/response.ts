/**
 * The 200 body of GET and PATCH /v1/organizations/{internalOrgId}/users/{internalUserId}:
 * the profile as setup answers it, plus what only the partner's user API shows (role,
 * order limit in dollars, the active switch). Strict, so the contract tests hold real
 * responses to it.
 */
// zod/mini: the setup Lambda serves these routes and builds this schema at cold start.
import * as z from 'zod/mini';
import { fromCents } from '../../domain/money';
import { isActive, type Profile, PROFILE_ROLES, roleOf } from '../../domain/organizations/organization';
import { ProfileBody, toProfileBody } from '../setup/response';

const OrganizationUserBody = z.extend(ProfileBody, {
  role: z.enum(PROFILE_ROLES),
  /** USD; `null` when the user has no limit. */
  orderLimit: z.nullable(z.number()),
  /** USD a calendar month; `null` when the user has no monthly limit. */
  monthlyLimit: z.nullable(z.number()),
  active: z.boolean(),
});

export const OrganizationUserResponseBody = z.strictObject({
  success: z.literal(true),
  data: z.strictObject({ profile: OrganizationUserBody }),
});
export type OrganizationUserResponseBody = z.infer<typeof OrganizationUserResponseBody>;

export function toOrganizationUserResponse(profile: Profile): OrganizationUserResponseBody {
  return {
    success: true,
    data: {
      profile: {
        ...toProfileBody(profile),
        // An operator's `profile disable` keeps the user's id aside; the profile still names it.
        user: profile.userId ?? profile.unlinkedUserId ?? '',
        role: roleOf(profile),
        orderLimit: profile.orderLimitCents === undefined ? null : fromCents(profile.orderLimitCents),
        monthlyLimit: profile.monthlyLimitCents === undefined ? null : fromCents(profile.monthlyLimitCents),
        active: isActive(profile),
      },
    },
  };
}
