/**
 * The SDK's user and shipping-location methods against a running local stack: each
 * resolves to the documented body (validated against docs/openapi.json), and the
 * failures a partner branches on reject with their typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PartnerClient,
  PartnerConflictError,
  PartnerInvalidRequestError,
  PartnerNotFoundError,
} from '../../sdk/src/index';
import { schemaProblems } from '../support/api-document';
import { aSetupBody } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const documented = (schema: string, value: unknown) =>
  schemaProblems({ $ref: `#/components/schemas/${schema}` }, value);

async function aClientWithOrganization() {
  const partner = await stack.createPartner();
  const client = new PartnerClient({ apiKey: partner.apiKey, baseUrl: stack.url, sleep: async () => {} });
  const body = aSetupBody();
  await client.organizations.setup({ ...body, user: { ...body.user, role: 'approver', orderLimit: 500 } });
  return { client, org: body.internalOrgId, user: body.internalUserId };
}

describe('organizations.users', () => {
  it('gets and updates a user with the documented bodies', async () => {
    const { client, org, user } = await aClientWithOrganization();
    const got = await client.organizations.users.get(org, user);
    expect(documented('OrganizationUserResponse', got)).toEqual([]);
    expect(got.data.profile).toMatchObject({ role: 'approver', orderLimit: 500, active: true });

    const updated = await client.organizations.users.update(org, user, { orderLimit: null, active: false });
    expect(documented('OrganizationUserResponse', updated)).toEqual([]);
    expect(updated.data.profile).toMatchObject({ orderLimit: null, active: false });
  });

  it('rejects an unknown user with PartnerNotFoundError', async () => {
    const { client, org } = await aClientWithOrganization();
    await expect(client.organizations.users.get(org, 'nobody')).rejects.toBeInstanceOf(PartnerNotFoundError);
  });
});

describe('organizations.shippingLocations', () => {
  it('creates and updates a location with the documented bodies', async () => {
    const { client, org } = await aClientWithOrganization();
    const location = {
      internalShippingLocationId: 'loc-sdk',
      name: 'Annex',
      address: { line1: '1 Side St', city: 'Austin', province: 'tx', postalCode: '78701' },
    };
    const created = await client.organizations.shippingLocations.create(org, location);
    expect(documented('ShippingLocationResponse', created)).toEqual([]);
    expect(created.data.shippingLocation.address.province).toBe('Texas');

    // A default location is always active (409 DEFAULT_LOCATION_INACTIVE otherwise), so the update names the new
    // default and renames it.
    const updated = await client.organizations.shippingLocations.update(org, 'loc-sdk', {
      isDefault: true,
      name: 'Annex (main)',
    });
    expect(documented('ShippingLocationResponse', updated)).toEqual([]);
    expect(updated.data.shippingLocation).toMatchObject({ isDefault: true, isActive: true, name: 'Annex (main)' });

    await expect(client.organizations.shippingLocations.create(org, location)).rejects.toBeInstanceOf(
      PartnerConflictError,
    );
  });
});

describe('organizations.spend', () => {
  it("reads a month's report with the documented body, and rejects a malformed month and another partner's organization", async () => {
    const { client, org, user } = await aClientWithOrganization();
    const report = await client.organizations.spend(org, { month: '2020-02' });
    expect(documented('SpendReport', report)).toEqual([]);
    expect(report).toMatchObject({ internal_org_id: org, month: '2020-02', total: 0, order_count: 0 });
    expect(report.users).toEqual([expect.objectContaining({ internal_user_id: user, total: 0, order_limit: 500 })]);

    await expect(client.organizations.spend(org, { month: '2020-2' })).rejects.toBeInstanceOf(
      PartnerInvalidRequestError,
    );
    const other = await aClientWithOrganization();
    await expect(other.client.organizations.spend(org)).rejects.toBeInstanceOf(PartnerNotFoundError);
  });
});
