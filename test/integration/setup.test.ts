import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { SetupResponseBody } from '../../functions/api/setup/response';
import { aLocation, anAddress, aSetupRequest } from '../support/setup-request-builder';
import { scanTable, stripeCustomersFor } from '../support/inspect';
import { TEST_CLOCK_START } from '../support/manual-clock';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const NOW = TEST_CLOCK_START;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

async function newPartner() {
  const partner = await stack.createPartner();
  return {
    ...partner,
    setup: (body: unknown, headers: Record<string, string> = {}) =>
      stack.post(SETUP, body, { ...bearer(partner.apiKey), ...headers }),
  };
}

describe('setup of a new organization (contract: setup behaviour 1)', () => {
  it('answers 200 with exactly the contract fields, echoing no input-only field', async () => {
    const partner = await newPartner();
    const body = aSetupRequest()
      .forOrg('acme-1', 'Acme Dental')
      .forUser('u-1', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@acme.example.com',
        phoneNumber: '+1 512 555 0100',
      })
      .with({
        userAddress: anAddress({ line2: 'Apt 4' }),
        billingAddress: anAddress({ line1: '1 Billing Way', province: 'texas' }),
        organizationEmail: 'billing@acme.example.com',
        organizationPhone: '+1 512 555 0199',
      })
      .withLocations(
        aLocation('loc-2', {
          name: 'Warehouse',
          address: anAddress({
            line1: '9 Dock Rd',
            line2: 'Bay 3',
            city: 'Brooklyn',
            province: 'ny',
            postalCode: '11201-1234',
            country: 'usa',
          }),
        }),
        aLocation('loc-1', {
          name: 'Main office',
          nickname: 'HQ',
          isDefault: true,
          contact: { name: 'Front desk', phone: '512-555-0101', email: 'desk@acme.example.com' },
          deliveryInstructions: 'Leave at reception',
        }),
      )
      .build();

    const res = await partner.setup(body);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        organization: {
          id: UUID,
          name: 'Acme Dental',
          internalOrgId: 'acme-1',
          paymentCustomerId: expect.stringMatching(/^cus_/),
          paymentTerms: 'net30',
        },
        profile: {
          id: UUID,
          partner: partner.partnerId,
          organization: res.body.data.organization.id,
          internal_user_id: 'u-1',
          user: UUID,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@acme.example.com',
          phone_number: '+1 512 555 0100',
          created_at: NOW,
        },
        shippingLocations: [
          {
            id: UUID,
            name: 'Main office',
            nickname: 'HQ',
            internalShippingLocationId: 'loc-1',
            address: {
              line1: '100 Congress Ave',
              city: 'Austin',
              province: 'Texas',
              postalCode: '78701',
              country: 'United States',
            },
            isDefault: true,
            isActive: true,
          },
          {
            id: UUID,
            name: 'Warehouse',
            internalShippingLocationId: 'loc-2',
            address: {
              line1: '9 Dock Rd',
              line2: 'Bay 3',
              city: 'Brooklyn',
              province: 'New York',
              postalCode: '11201-1234',
              country: 'United States',
            },
            isDefault: false,
            isActive: true,
          },
        ],
        isNewOrganization: true,
      },
    });
    expect(() => SetupResponseBody.parse(res.body)).not.toThrow();
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('leaves out phone_number and nickname when not supplied, and answers an empty location list when none are given', async () => {
    const partner = await newPartner();
    const res = await partner.setup(aSetupRequest().build());
    expect(res.status).toBe(200);
    expect(res.body.data.profile).not.toHaveProperty('phone_number');
    expect(res.body.data.shippingLocations).toEqual([]);

    const other = await partner.setup(aSetupRequest().withLocations(aLocation('l-1')).build());
    expect(other.body.data.shippingLocations[0]).not.toHaveProperty('nickname');
    expect(other.body.data.shippingLocations[0].isDefault).toBe(false);
  });

  it('creates one Stripe customer with the organization name, contact, billing address and owner metadata', async () => {
    const partner = await newPartner();
    const res = await partner.setup(
      aSetupRequest()
        .forOrg('stripe-org', 'Bright Smiles LLC')
        .with({
          organizationEmail: 'ap@bright.example.com',
          organizationPhone: '+1 303 555 0111',
          billingAddress: anAddress({
            line1: '1 Billing Way',
            line2: 'Suite 200',
            city: 'Denver',
            province: 'co',
            postalCode: '80202',
          }),
        })
        .build(),
    );
    expect(res.status).toBe(200);

    const customers = await stripeCustomersFor(partner.partnerId, 'stripe-org');
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({
      id: res.body.data.organization.paymentCustomerId,
      name: 'Bright Smiles LLC',
      email: 'ap@bright.example.com',
      phone: '+1 303 555 0111',
      address: {
        line1: '1 Billing Way',
        line2: 'Suite 200',
        city: 'Denver',
        state: 'Colorado',
        postal_code: '80202',
        country: 'US',
      },
      metadata: { partnerId: partner.partnerId, environment: 'sandbox', internalOrgId: 'stripe-org' },
    });
  });

  it('stores the input-only fields and links the profile to an active identity user', async () => {
    const partner = await newPartner();
    const body = aSetupRequest()
      .with({
        userAddress: anAddress({ line1: '5 Home St', province: 'wa', postalCode: '98101', city: 'Seattle' }),
        billingAddress: anAddress({ line1: '1 Billing Way' }),
        organizationEmail: 'ap@acme.example.com',
        organizationPhone: '555-0199',
      })
      .withLocations(
        aLocation('dock', {
          contact: { name: 'Sam', phone: '555-0101', email: 'sam@acme.example.com' },
          deliveryInstructions: 'Ring twice',
        }),
      )
      .build();
    const res = await partner.setup(body);
    expect(res.status).toBe(200);

    const stored = await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId);
    expect(stored?.organization).toMatchObject({
      email: 'ap@acme.example.com',
      phone: '555-0199',
      billingAddress: {
        line1: '1 Billing Way',
        city: 'Austin',
        province: 'Texas',
        postalCode: '78701',
        country: 'United States',
      },
    });
    expect(stored?.profiles).toHaveLength(1);
    expect(stored?.profiles[0]?.address).toEqual({
      line1: '5 Home St',
      city: 'Seattle',
      province: 'Washington',
      postalCode: '98101',
      country: 'United States',
    });
    expect(stored?.locations[0]).toMatchObject({
      contact: { name: 'Sam', phone: '555-0101', email: 'sam@acme.example.com' },
      deliveryInstructions: 'Ring twice',
    });
    const user = await stack.deps.identity.getUser(res.body.data.profile.user);
    expect(user).toMatchObject({
      profileId: res.body.data.profile.id,
      partnerId: partner.partnerId,
      status: 'active',
      email: body.user.email,
    });
    expect(await stack.deps.organizations.getProfile(res.body.data.profile.id)).toMatchObject({
      userId: res.body.data.profile.user,
    });
  });

  it('normalizes provinces given as abbreviations or in any case to full state names (behaviour 4)', async () => {
    const partner = await newPartner();
    const res = await partner.setup(
      aSetupRequest()
        .withLocations(
          aLocation('a', { address: anAddress({ province: 'ca' }) }),
          aLocation('b', { address: anAddress({ province: 'NEW  york' }) }),
          aLocation('c', { address: anAddress({ province: 'Dc' }) }),
        )
        .build(),
    );
    expect(res.body.data.shippingLocations.map((l: any) => l.address.province)).toEqual([
      'California',
      'New York',
      'District of Columbia',
    ]);
  });
});

describe('setup of an existing organization (contract: setup behaviours 2 and 5)', () => {
  it("adds a profile, lists all of the organization's locations and keeps the one payment customer", async () => {
    const partner = await newPartner();
    const first = await partner.setup(
      aSetupRequest()
        .forOrg('clinic')
        .forUser('u-1')
        .withLocations(aLocation('front', { isDefault: true }), aLocation('back'))
        .build(),
    );
    stack.clock.advance(1000);
    const second = await partner.setup(
      aSetupRequest()
        .forOrg('clinic')
        .forUser('u-2', { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.example.com' })
        .build(),
    );

    expect(second.status).toBe(200);
    expect(second.body.data.isNewOrganization).toBe(false);
    expect(second.body.data.organization).toEqual(first.body.data.organization);
    expect(second.body.data.shippingLocations).toEqual(first.body.data.shippingLocations);
    expect(second.body.data.profile).toMatchObject({
      internal_user_id: 'u-2',
      first_name: 'Grace',
      email: 'grace@acme.example.com',
      organization: first.body.data.organization.id,
      created_at: new Date(Date.parse(NOW) + 1000).toISOString(),
    });
    expect(second.body.data.profile.id).not.toBe(first.body.data.profile.id);
    expect(second.body.data.profile.user).not.toBe(first.body.data.profile.user);
    expect(await stripeCustomersFor(partner.partnerId, 'clinic')).toHaveLength(1);
  });

  it('adds locations whose internalShippingLocationId is new and leaves known ones unchanged', async () => {
    const partner = await newPartner();
    await partner.setup(
      aSetupRequest()
        .forOrg('chain')
        .forUser('u-1')
        .withLocations(aLocation('store-1', { name: 'Original name' }))
        .build(),
    );
    stack.clock.advance(1000);
    const res = await partner.setup(
      aSetupRequest()
        .forOrg('chain', 'Renamed Chain')
        .forUser('u-2')
        .withLocations(
          aLocation('store-1', { name: 'Changed name', address: anAddress({ province: 'ca' }) }),
          aLocation('store-2'),
        )
        .build(),
    );

    expect(res.status).toBe(200);
    expect(res.body.data.organization.name).toBe('Acme Dental');
    expect(
      res.body.data.shippingLocations.map((l: any) => [l.internalShippingLocationId, l.name, l.address.province]),
    ).toEqual([
      ['store-1', 'Original name', 'Texas'],
      ['store-2', 'Location store-2', 'Texas'],
    ]);
    const stored = await stack.deps.organizations.getOrganization(partner.partnerId, 'chain');
    expect(stored?.locations.map((l) => l.name)).toEqual(['Original name', 'Location store-2']);
  });

  it('keeps the existing default when a later setup asks for a new default location', async () => {
    const partner = await newPartner();
    await partner.setup(
      aSetupRequest()
        .forOrg('dflt')
        .forUser('u-1')
        .withLocations(aLocation('a', { isDefault: true }))
        .build(),
    );
    const res = await partner.setup(
      aSetupRequest()
        .forOrg('dflt')
        .forUser('u-2')
        .withLocations(aLocation('b', { isDefault: true }))
        .build(),
    );

    expect(res.status).toBe(200);
    expect(res.body.data.shippingLocations.map((l: any) => [l.internalShippingLocationId, l.isDefault])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('makes a requested default the default when the organization has none yet', async () => {
    const partner = await newPartner();
    await partner.setup(aSetupRequest().forOrg('nodflt').forUser('u-1').withLocations(aLocation('a')).build());
    const res = await partner.setup(
      aSetupRequest()
        .forOrg('nodflt')
        .forUser('u-2')
        .withLocations(aLocation('b', { isDefault: true }))
        .build(),
    );
    expect(res.body.data.shippingLocations.map((l: any) => [l.internalShippingLocationId, l.isDefault])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('lets the same internalUserId exist in two organizations of one partner', async () => {
    const partner = await newPartner();
    const a = await partner.setup(aSetupRequest().forOrg('org-a').forUser('shared-user').build());
    const b = await partner.setup(aSetupRequest().forOrg('org-b').forUser('shared-user').build());
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.data.isNewOrganization).toBe(true);
  });
});

describe('a repeated user (contract: setup behaviour 3)', () => {
  it('answers 409 USER_ALREADY_EXISTS with the existing profile id and email, and stores nothing', async () => {
    const partner = await newPartner();
    const first = await partner.setup(
      aSetupRequest().forOrg('dup').forUser('u-1', { email: 'first@acme.example.com' }).build(),
    );
    const before = await stack.deps.organizations.getOrganization(partner.partnerId, 'dup');

    const res = await partner.setup(
      aSetupRequest()
        .forOrg('dup')
        .forUser('u-1', { email: 'second@acme.example.com' })
        .withLocations(aLocation('new-loc'))
        .build(),
    );

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Conflict',
      message: expect.any(String),
      code: 'USER_ALREADY_EXISTS',
      details: [],
      data: { profileId: first.body.data.profile.id, email: 'first@acme.example.com' },
    });
    expect(await stack.deps.organizations.getOrganization(partner.partnerId, 'dup')).toEqual(before);
  });
});

describe('setup error table (contract: Errors, setup endpoint)', () => {
  it('answers 400 VALIDATION_ERROR listing every problem with its path, and stores nothing', async () => {
    const partner = await newPartner();
    const itemsBefore = (await scanTable(stack, 'organizations')).length;
    const res = await partner.setup({
      internalOrgId: 'bad-org',
      internalUserId: 'u-1',
      user: { firstName: 'Ada', lastName: 'Lovelace', email: 'not-an-email' },
      shippingLocations: [aLocation('l-1', { address: anAddress({ province: 'Ontario' }) })],
    });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Validation Error',
      message: expect.any(String),
      code: 'VALIDATION_ERROR',
      details: [
        { code: 'REQUIRED', message: 'organizationName is required', path: ['organizationName'] },
        { code: 'INVALID_EMAIL', message: 'user.email must be a valid email address', path: ['user', 'email'] },
        {
          code: 'INVALID_US_STATE',
          message: expect.stringContaining('shippingLocations[0].address.province'),
          path: ['shippingLocations', '0', 'address', 'province'],
        },
      ],
    });
    expect((await scanTable(stack, 'organizations')).length).toBe(itemsBefore);
    expect(await stripeCustomersFor(partner.partnerId, 'bad-org')).toEqual([]);
  });

  it('answers 400 INVALID_TEXT for text holding an unpaired surrogate, before Stripe or DynamoDB see it', async () => {
    const partner = await newPartner();
    const res = await partner.setup(
      aSetupRequest()
        .forOrg('surrogate-org')
        .with({ organizationName: 'Acme \ud800' })
        .withLocations(aLocation('l-\udc00', { name: 'Dock' }))
        .build(),
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { code: 'INVALID_TEXT', message: expect.stringContaining('organizationName'), path: ['organizationName'] },
      {
        code: 'INVALID_TEXT',
        message: expect.any(String),
        path: ['shippingLocations', '0', 'internalShippingLocationId'],
      },
    ]);
    expect(await stripeCustomersFor(partner.partnerId, 'surrogate-org')).toEqual([]);
  });

  it('answers 400 when a required field is missing', async () => {
    const partner = await newPartner();
    const { user: _user, ...body } = aSetupRequest().build();
    const res = await partner.setup(body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ code: 'REQUIRED', message: 'user is required', path: ['user'] }]);
  });

  it('answers 401 UNAUTHORIZED without a valid key', async () => {
    const res = await stack.post(SETUP, aSetupRequest().build(), bearer(`sk_test_${'0'.repeat(64)}`));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', message: expect.any(String), code: 'UNAUTHORIZED', details: [] });
  });

  it('answers 403 FORBIDDEN when the key lacks organization:write', async () => {
    const { apiKey } = await stack.createPartner({ scopes: ['session:write'] });
    const res = await stack.post(SETUP, aSetupRequest().build(), bearer(apiKey));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Forbidden', message: expect.any(String), code: 'FORBIDDEN', details: [] });
  });
});

describe('partner isolation', () => {
  it('gives two partners using the same internalOrgId and internalUserId separate organizations, customers and locations', async () => {
    const one = await newPartner();
    const two = await newPartner();
    const a = await one.setup(
      aSetupRequest().forOrg('same-org').forUser('same-user').withLocations(aLocation('one-loc')).build(),
    );
    const b = await two.setup(
      aSetupRequest().forOrg('same-org').forUser('same-user').withLocations(aLocation('two-loc')).build(),
    );

    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.data.isNewOrganization).toBe(true);
    expect(b.body.data.organization.id).not.toBe(a.body.data.organization.id);
    expect(b.body.data.organization.paymentCustomerId).not.toBe(a.body.data.organization.paymentCustomerId);
    expect(b.body.data.shippingLocations.map((l: any) => l.internalShippingLocationId)).toEqual(['two-loc']);

    const again = await one.setup(aSetupRequest().forOrg('same-org').forUser('another-user').build());
    expect(again.body.data.shippingLocations.map((l: any) => l.internalShippingLocationId)).toEqual(['one-loc']);
    expect((await stack.deps.organizations.listOrganizations(two.partnerId as PartnerId)).map((o) => o.id)).toEqual([
      b.body.data.organization.id,
    ]);
  });
});
