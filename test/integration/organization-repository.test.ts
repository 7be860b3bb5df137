import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '../../functions/domain/addresses/address';
import { NotFound } from '../../functions/domain/errors';
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
import { ConcurrentModification, OrganizationAlreadyExists, ProfileAlreadyExists } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { scanTable } from '../support/inspect';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const CREATED = '2026-11-22T12:00:00.000Z';
const address: Address = {
  line1: '1 Main St',
  city: 'Austin',
  province: 'Texas',
  postalCode: '78701',
  country: 'United States',
};

function anOrganization(partnerId: PartnerId, internalOrgId = `org-${randomUUID().slice(0, 6)}`): Organization {
  return {
    id: randomUUID() as OrganizationId,
    partnerId,
    internalOrgId,
    name: 'Acme',
    paymentCustomerId: 'cus_test',
    createdAt: CREATED,
  };
}

function aProfile(organization: Organization, internalUserId: string): { profile: Profile; user: IdentityUser } {
  const id = randomUUID() as ProfileId;
  const userId = randomUUID() as UserId;
  return {
    profile: {
      id,
      partnerId: organization.partnerId,
      organizationId: organization.id,
      internalOrgId: organization.internalOrgId,
      internalUserId,
      userId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `${internalUserId}@acme.example.com`,
      createdAt: CREATED,
    },
    user: {
      id: userId,
      partnerId: organization.partnerId,
      profileId: id,
      email: 'ada@acme.example.com',
      status: 'active',
      createdAt: CREATED,
    },
  };
}

function aLocation(
  organization: Organization,
  internalShippingLocationId: string,
  isDefault = false,
): ShippingLocation {
  return {
    id: randomUUID() as ShippingLocationId,
    organizationId: organization.id,
    internalShippingLocationId,
    name: internalShippingLocationId,
    address,
    isDefault,
    isActive: true,
    createdAt: CREATED,
  };
}

const partner = () => randomUUID() as PartnerId;

async function created(partnerId = partner(), locations: (org: Organization) => ShippingLocation[] = () => []) {
  const organization = anOrganization(partnerId);
  const { profile, user } = aProfile(organization, 'founder');
  await stack.deps.organizations.createOrganization({
    organization,
    profile,
    user,
    locations: locations(organization),
  });
  return { organization, profile, user };
}

const itemCount = async () =>
  (await scanTable(stack, 'organizations')).length + (await scanTable(stack, 'identityUsers')).length;

describe('DynamoOrganizationRepository', () => {
  it('writes an organization with its profile, identity user and locations, and reads them back whole', async () => {
    const { organization, profile, user } = await created(partner(), (org) => [
      aLocation(org, 'b', true),
      aLocation(org, 'a'),
    ]);

    const aggregate = await stack.deps.organizations.getOrganization(
      organization.partnerId,
      organization.internalOrgId,
    );
    expect(aggregate?.organization).toEqual(organization);
    expect(aggregate?.profiles).toEqual([profile]);
    expect(aggregate?.locations.map((l) => l.internalShippingLocationId)).toEqual(['a', 'b']);
    expect(await stack.deps.identity.getUser(user.id)).toEqual(user);
    expect(await stack.deps.organizations.getProfile(profile.id)).toEqual(profile);
  });

  it('refuses a second organization with the same internalOrgId and writes none of it', async () => {
    const { organization } = await created();
    const before = await itemCount();
    const again = { ...anOrganization(organization.partnerId, organization.internalOrgId) };
    const { profile, user } = aProfile(again, 'someone');

    await expect(
      stack.deps.organizations.createOrganization({
        organization: again,
        profile,
        user,
        locations: [aLocation(again, 'x')],
      }),
    ).rejects.toBeInstanceOf(OrganizationAlreadyExists);
    expect(await itemCount()).toBe(before);
  });

  it('writes up to 50 locations in the one creation transaction', async () => {
    const { organization } = await created(partner(), (org) =>
      Array.from({ length: 50 }, (_, i) => aLocation(org, `loc-${String(i).padStart(2, '0')}`, i === 0)),
    );
    const aggregate = await stack.deps.organizations.getOrganization(
      organization.partnerId,
      organization.internalOrgId,
    );
    expect(aggregate?.locations).toHaveLength(50);
  });

  it('adds a profile with new locations to an existing organization', async () => {
    const { organization } = await created();
    const { profile, user } = aProfile(organization, 'second');
    await stack.deps.organizations.addProfile({
      organization,
      profile,
      user,
      newLocations: [aLocation(organization, 'annex')],
    });

    const aggregate = await stack.deps.organizations.getOrganization(
      organization.partnerId,
      organization.internalOrgId,
    );
    expect(aggregate?.profiles.map((p) => p.internalUserId).sort()).toEqual(['founder', 'second']);
    expect(aggregate?.locations.map((l) => l.internalShippingLocationId)).toEqual(['annex']);
  });

  it('refuses a taken internalUserId with the existing profile, writing nothing', async () => {
    const { organization, profile: existing } = await created();
    const before = await itemCount();
    const { profile, user } = aProfile(organization, 'founder');

    const failure = await stack.deps.organizations
      .addProfile({ organization, profile, user, newLocations: [aLocation(organization, 'never')] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProfileAlreadyExists);
    expect((failure as ProfileAlreadyExists).existing).toEqual(existing);
    expect(await itemCount()).toBe(before);
  });

  it('reports a concurrent modification when a location it adds appeared meanwhile', async () => {
    const { organization } = await created(partner(), (org) => [aLocation(org, 'taken')]);
    const { profile, user } = aProfile(organization, 'late');
    await expect(
      stack.deps.organizations.addProfile({
        organization,
        profile,
        user,
        newLocations: [aLocation(organization, 'taken')],
      }),
    ).rejects.toBeInstanceOf(ConcurrentModification);
    expect(await stack.deps.organizations.getProfile(profile.id)).toBeUndefined();
  });

  it('reports a concurrent modification when a second default location would appear', async () => {
    const { organization } = await created(partner(), (org) => [aLocation(org, 'first', true)]);
    const { profile, user } = aProfile(organization, 'late');
    await expect(
      stack.deps.organizations.addProfile({
        organization,
        profile,
        user,
        newLocations: [aLocation(organization, 'second', true)],
      }),
    ).rejects.toBeInstanceOf(ConcurrentModification);
  });

  it('keeps partners apart in reads and lists', async () => {
    const one = partner();
    const two = partner();
    const a = await created(one);
    await created(two);
    expect(await stack.deps.organizations.getOrganization(two, a.organization.internalOrgId)).toBeUndefined();
    expect((await stack.deps.organizations.listOrganizations(one)).map((o) => o.id)).toEqual([a.organization.id]);
    expect(await stack.deps.organizations.findProfilesByInternalUserId(one, 'founder')).toEqual([a.profile]);
  });

  it("finds a partner's profiles by internalUserId across its organizations", async () => {
    const owner = partner();
    const first = await created(owner);
    const second = await created(owner);
    const found = await stack.deps.organizations.findProfilesByInternalUserId(owner, 'founder');
    expect(found.map((p) => p.id).sort()).toEqual([first.profile.id, second.profile.id].sort());
  });

  it('unlinks a profile from its identity user and disables that user', async () => {
    const { profile, user, organization } = await created();
    const at = new Date('2026-11-23T00:00:00.000Z');
    const unlinked = await stack.deps.organizations.unlinkProfile(profile.id, at);

    expect(unlinked).not.toHaveProperty('userId');
    expect(await stack.deps.organizations.getProfile(profile.id)).not.toHaveProperty('userId');
    const aggregate = await stack.deps.organizations.getOrganization(
      organization.partnerId,
      organization.internalOrgId,
    );
    expect(aggregate?.profiles[0]).not.toHaveProperty('userId');
    expect(await stack.deps.identity.getUser(user.id)).toMatchObject({
      status: 'disabled',
      disabledAt: at.toISOString(),
    });
  });

  it('throws NotFound when unlinking an unknown profile', async () => {
    await expect(stack.deps.organizations.unlinkProfile(randomUUID() as ProfileId, new Date())).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});
