/**
 * Provisions organizations and profiles straight through the repository, the way setup
 * will store them, so session tests do not depend on the setup endpoint. Input is the
 * setup endpoint's own body (parsed by its schema), so tests read like partner calls.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Dependencies } from '../../functions/container';
import type { IdentityUser } from '../../functions/domain/identity/identity-user';
import type {
  Organization,
  OrganizationId,
  Profile,
  ProfileId,
  ShippingLocation,
  ShippingLocationId,
  UserId,
} from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { SetupRequest } from '../../functions/domain/organizations/setup-request';

export type SetupBody = z.input<typeof SetupRequest>;

export interface ProvisionedProfile {
  readonly organization: Organization;
  readonly profile: Profile;
  readonly user: IdentityUser;
  readonly locations: readonly ShippingLocation[];
}

/** A setup body with unique ids; override what the test is about. */
export function aSetupBody(overrides: Partial<SetupBody> = {}): SetupBody {
  const suffix = randomUUID().slice(0, 8);
  return {
    internalOrgId: `org-${suffix}`,
    organizationName: 'Acme Dental',
    internalUserId: `user-${suffix}`,
    user: { firstName: 'Ada', lastName: 'Lovelace', email: `ada.${suffix}@acme.test` },
    shippingLocations: [
      {
        internalShippingLocationId: 'loc-main',
        name: 'Main office',
        address: { line1: '1 Main St', city: 'Austin', province: 'TX', postalCode: '78701' },
        isDefault: true,
      },
    ],
    ...overrides,
  };
}

/**
 * Another member of `body`'s organization: its own internal user id and e-mail derived from
 * `id`, with `user` (name, role, limits) on top.
 */
export const aColleagueBody = (body: SetupBody, id: string, user: Record<string, unknown> = {}): SetupBody => ({
  ...body,
  internalUserId: `${id}-${body.internalUserId}`,
  user: { firstName: id, lastName: 'Tester', email: `${id}.${body.internalUserId}@acme.test`, ...user },
});

/** Creates the organization (first profile) or adds the profile to it, as setup would. */
export async function provisionProfile(
  deps: Dependencies,
  partnerId: PartnerId,
  body: SetupBody = aSetupBody(),
): Promise<ProvisionedProfile> {
  const input = SetupRequest.parse(body);
  const now = deps.clock.now().toISOString();
  const existing = await deps.organizations.getOrganization(partnerId, input.internalOrgId);
  const organization: Organization = existing?.organization ?? {
    id: randomUUID() as OrganizationId,
    partnerId,
    internalOrgId: input.internalOrgId,
    name: input.organizationName,
    paymentCustomerId: `cus_test_${randomUUID().slice(0, 12)}`,
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    createdAt: now,
  };
  const profileId = randomUUID() as ProfileId;
  const userId = randomUUID() as UserId;
  const profile: Profile = {
    id: profileId,
    partnerId,
    organizationId: organization.id,
    internalOrgId: input.internalOrgId,
    internalUserId: input.internalUserId,
    userId,
    firstName: input.user.firstName,
    lastName: input.user.lastName,
    email: input.user.email,
    // As setup stores them: `orderLimit` is parsed to cents.
    ...(input.user.role ? { role: input.user.role } : {}),
    ...(input.user.orderLimit === undefined ? {} : { orderLimitCents: input.user.orderLimit }),
    ...(input.user.monthlyLimit === undefined ? {} : { monthlyLimitCents: input.user.monthlyLimit }),
    createdAt: now,
  };
  const user: IdentityUser = {
    id: userId,
    partnerId,
    profileId,
    email: input.user.email,
    status: 'active',
    createdAt: now,
  };
  const known = new Set(existing?.locations.map((l) => l.internalShippingLocationId));
  const locations: ShippingLocation[] = (input.shippingLocations ?? [])
    .filter((l) => !known.has(l.internalShippingLocationId))
    .map((l) => ({
      id: randomUUID() as ShippingLocationId,
      organizationId: organization.id,
      internalShippingLocationId: l.internalShippingLocationId,
      name: l.name,
      ...(l.nickname ? { nickname: l.nickname } : {}),
      address: l.address,
      isDefault: l.isDefault,
      isActive: true,
      createdAt: now,
    }));
  if (existing) {
    await deps.organizations.addProfile({ organization, profile, user, newLocations: locations });
  } else {
    await deps.organizations.createOrganization({ organization, profile, user, locations });
  }
  return { organization, profile, user, locations: [...(existing?.locations ?? []), ...locations] };
}
