import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Forbidden, NotFound } from '../../functions/domain/errors';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { organizationKeys } from '../../functions/adapters/dynamodb/organization-items';
import { tableName } from '../../functions/resources/resource-definitions';
import type { PartnerId } from '../../functions/domain/partners/partner';
import {
  disableProfile,
  enableProfile,
  listOrganizations,
  organizationCommands,
  showOrganization,
} from '../../lib/ops-cli/organization-commands';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

async function partnerWithOrganizations(...internalOrgIds: string[]) {
  const partner = await stack.createPartner();
  const responses = [];
  for (const internalOrgId of internalOrgIds) {
    const res = await stack.post(
      SETUP,
      aSetupRequest()
        .forOrg(internalOrgId)
        .forUser('u-1')
        .with({ organizationEmail: 'ap@acme.example.com' })
        .withLocations(aLocation('dock', { isDefault: true, deliveryInstructions: 'Ring twice' }))
        .build(),
      { Authorization: `Bearer ${partner.apiKey}` },
    );
    responses.push(res.body.data);
  }
  return { ...partner, responses };
}

describe('operator commands: organization list / show, profile disable', () => {
  it("lists only the partner's organizations", async () => {
    const mine = await partnerWithOrganizations('alpha', 'beta');
    await partnerWithOrganizations('gamma');

    const result = await listOrganizations(stack.deps, { partner: mine.partnerId });
    expect(result.partnerId).toBe(mine.partnerId);
    expect(result.organizations.map((o) => o.internalOrgId)).toEqual(['alpha', 'beta']);
    expect(result.organizations[0]).toEqual({
      id: mine.responses[0].organization.id,
      internalOrgId: 'alpha',
      name: 'Acme Dental',
      paymentCustomerId: mine.responses[0].organization.paymentCustomerId,
      createdAt: expect.any(String),
    });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('shows an organization with its profiles (and their identity users) and locations, input-only fields included', async () => {
    const { partnerId, responses } = await partnerWithOrganizations('shown');
    const result = await showOrganization(stack.deps, { partner: partnerId, org: 'shown' });

    expect(result.organization).toMatchObject({
      internalOrgId: 'shown',
      email: 'ap@acme.example.com',
      billingAddress: null,
    });
    expect(result.profiles).toEqual([
      expect.objectContaining({
        id: responses[0].profile.id,
        internalUserId: 'u-1',
        user: { id: responses[0].profile.user, status: 'active' },
      }),
    ]);
    expect(result.locations).toEqual([
      expect.objectContaining({
        internalShippingLocationId: 'dock',
        isDefault: true,
        deliveryInstructions: 'Ring twice',
      }),
    ]);
  });

  it("shows each profile's role, order limit and the partner's active switch, in --json and as text", async () => {
    const { partnerId } = await partnerWithOrganizations('roles');
    const organization = await stack.deps.organizations.getOrganization(partnerId as PartnerId, 'roles');
    await stack.deps.functions.setup.partnerUsers.update(partnerId as PartnerId, 'roles', 'u-1', {
      role: 'approver',
      orderLimit: 123456,
      active: false,
    });
    const result = await showOrganization(stack.deps, { partner: partnerId, org: 'roles' });
    expect(result.profiles[0]).toMatchObject({
      id: organization!.profiles[0]!.id,
      role: 'approver',
      orderLimitCents: 123456,
      active: false,
    });

    const { text } = await organizationCommands['organization show']!.run(stack.deps, {
      partner: partnerId,
      org: 'roles',
    } as never);
    expect(text.find((line) => line.startsWith('PROFILE ID'))).toMatch(/ROLE\s+LIMIT\s+ACTIVE/);
    expect(text.find((line) => line.startsWith(organization!.profiles[0]!.id))).toMatch(
      /approver\s+\$1,234\.56\s+false/,
    );
  });

  it('refuses an unknown partner or organization with NotFound', async () => {
    await expect(listOrganizations(stack.deps, { partner: randomUUID() })).rejects.toBeInstanceOf(NotFound);
    const { partnerId } = await partnerWithOrganizations('exists');
    await expect(showOrganization(stack.deps, { partner: partnerId, org: 'missing' })).rejects.toBeInstanceOf(NotFound);
  });

  it('disables a profile: unlinks it and disables its identity user; a second run changes nothing', async () => {
    const { partnerId, responses } = await partnerWithOrganizations('disable');
    const profileId = responses[0].profile.id;

    const result = await disableProfile(stack.deps, { partner: partnerId, profile: profileId });
    expect(result).toEqual({
      profileId,
      partnerId,
      internalOrgId: 'disable',
      internalUserId: 'u-1',
      disabledUserId: responses[0].profile.user,
      alreadyDisabled: false,
    });
    expect(await stack.deps.identity.getUser(responses[0].profile.user)).toMatchObject({ status: 'disabled' });
    expect(await stack.deps.organizations.getProfile(profileId)).not.toHaveProperty('userId');

    const again = await disableProfile(stack.deps, { partner: partnerId, profile: profileId });
    expect(again).toMatchObject({ alreadyDisabled: true, disabledUserId: null });
    const shown = await showOrganization(stack.deps, { partner: partnerId, org: 'disable' });
    expect(shown.profiles[0]?.user).toBeNull();
  });

  it('enables a profile disabled before its user id was kept, with a new active identity user', async () => {
    const { partnerId, responses } = await partnerWithOrganizations('legacy');
    const profile = responses[0].profile;
    await disableProfile(stack.deps, { partner: partnerId, profile: profile.id });
    // What a profile unlinked by the earlier `profile disable` looks like: no trace of its user.
    const table = tableName(stack.config.RESOURCE_PREFIX, 'organizations');
    for (const Key of [
      organizationKeys.profile(partnerId, 'legacy', 'u-1'),
      organizationKeys.profileById(profile.id),
    ]) {
      await stack.deps.aws.db.send(
        new UpdateCommand({ TableName: table, Key, UpdateExpression: 'REMOVE unlinkedUserId' }),
      );
    }

    const enabled = await enableProfile(stack.deps, { partner: partnerId, profile: profile.id });
    expect(enabled).toMatchObject({ profileId: profile.id, alreadyEnabled: false });
    expect(enabled.enabledUserId).not.toBe(profile.user);
    expect(await stack.deps.identity.getUser(enabled.enabledUserId)).toMatchObject({
      profileId: profile.id,
      status: 'active',
    });
    expect(await stack.deps.organizations.getProfile(profile.id)).toMatchObject({ userId: enabled.enabledUserId });
  });

  it("refuses to disable another partner's profile and leaves it linked", async () => {
    const owner = await partnerWithOrganizations('owned');
    const stranger = await stack.createPartner();
    const profileId = owner.responses[0].profile.id;

    await expect(
      disableProfile(stack.deps, { partner: stranger.partnerId, profile: profileId }),
    ).rejects.toBeInstanceOf(Forbidden);
    expect(await stack.deps.identity.getUser(owner.responses[0].profile.user)).toMatchObject({ status: 'active' });
    await expect(
      disableProfile(stack.deps, { partner: owner.partnerId, profile: randomUUID() }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});
