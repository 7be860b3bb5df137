import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { scanTable, stripeCustomersFor } from '../support/inspect';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const CALLERS = 8;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const itemsOf = async (partnerId: string, internalOrgId: string) =>
  (await scanTable(stack, 'organizations')).filter((item) => item.pk === `ORG#${partnerId}#${internalOrgId}`);

describe('concurrent setups (truly concurrent HTTP requests)', () => {
  it('creates exactly one organization and one Stripe customer when many users of a new organization arrive at once', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const responses = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) =>
        stack.post(
          SETUP,
          aSetupRequest()
            .forOrg('rush')
            .forUser(`u-${i}`)
            .withLocations(aLocation('main', { isDefault: true }))
            .build(),
          bearer(apiKey),
        ),
      ),
    );

    expect(responses.map((r) => r.status)).toEqual(Array(CALLERS).fill(200));
    expect(new Set(responses.map((r) => r.body.data.organization.id)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.data.organization.paymentCustomerId)).size).toBe(1);
    expect(responses.filter((r) => r.body.data.isNewOrganization)).toHaveLength(1);
    expect(new Set(responses.map((r) => r.body.data.shippingLocations[0].id)).size).toBe(1);

    const items = await itemsOf(partnerId, 'rush');
    expect(items.filter((i) => i.entity === 'organization')).toHaveLength(1);
    expect(items.filter((i) => i.entity === 'profile')).toHaveLength(CALLERS);
    expect(items.filter((i) => i.entity === 'location')).toHaveLength(1);
    const users = (await scanTable(stack, 'identityUsers')).filter((u) => u.partnerId === partnerId);
    expect(users).toHaveLength(CALLERS);
    const customers = await stripeCustomersFor(partnerId, 'rush');
    expect(customers.map((c) => c.id)).toEqual([responses[0]?.body.data.organization.paymentCustomerId]);
  });

  it('answers one 200 and 409s naming the winner when the same user is set up several times at once', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const body = aSetupRequest().forOrg('twice').forUser('same').build();
    const responses = await Promise.all(Array.from({ length: CALLERS }, () => stack.post(SETUP, body, bearer(apiKey))));

    const winners = responses.filter((r) => r.status === 200);
    const losers = responses.filter((r) => r.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(CALLERS - 1);
    for (const loser of losers) {
      expect(loser.body).toMatchObject({
        code: 'USER_ALREADY_EXISTS',
        data: { profileId: winners[0]?.body.data.profile.id, email: body.user.email },
      });
    }
    expect((await itemsOf(partnerId, 'twice')).filter((i) => i.entity === 'profile')).toHaveLength(1);
    expect(await stripeCustomersFor(partnerId, 'twice')).toHaveLength(1);
  });

  it('adds a new location once when concurrent setups of an existing organization all bring it', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    await stack.post(SETUP, aSetupRequest().forOrg('grow').forUser('founder').build(), bearer(apiKey));
    const responses = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) =>
        stack.post(
          SETUP,
          aSetupRequest().forOrg('grow').forUser(`u-${i}`).withLocations(aLocation('new-site')).build(),
          bearer(apiKey),
        ),
      ),
    );

    expect(responses.map((r) => r.status)).toEqual(Array(CALLERS).fill(200));
    expect(new Set(responses.map((r) => JSON.stringify(r.body.data.shippingLocations))).size).toBe(1);
    expect((await itemsOf(partnerId, 'grow')).filter((i) => i.entity === 'location')).toHaveLength(1);
  });

  it('ends with exactly one default location when concurrent setups each ask for a different new default', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    await stack.post(SETUP, aSetupRequest().forOrg('defaults').forUser('founder').build(), bearer(apiKey));
    const responses = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) =>
        stack.post(
          SETUP,
          aSetupRequest()
            .forOrg('defaults')
            .forUser(`u-${i}`)
            .withLocations(aLocation(`site-${i}`, { isDefault: true }))
            .build(),
          bearer(apiKey),
        ),
      ),
    );

    expect(responses.map((r) => r.status)).toEqual(Array(CALLERS).fill(200));
    const stored = await stack.deps.organizations.getOrganization(partnerId as never, 'defaults');
    expect(stored?.locations).toHaveLength(CALLERS);
    expect(stored?.locations.filter((l) => l.isDefault)).toHaveLength(1);
  });

  it("leaves the Stripe customer with the stored organization's details when racing first setups disagree on them", async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const responses = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) =>
        stack.post(
          SETUP,
          aSetupRequest()
            .forOrg('disagree', `Name ${i}`)
            .forUser(`u-${i}`)
            .with({ organizationEmail: `ap${i}@acme.example.com` })
            .build(),
          bearer(apiKey),
        ),
      ),
    );

    expect(responses.map((r) => r.status)).toEqual(Array(CALLERS).fill(200));
    const stored = await stack.deps.organizations.getOrganization(partnerId as never, 'disagree');
    const [customer, ...others] = await stripeCustomersFor(partnerId, 'disagree');
    expect(others).toEqual([]);
    expect(customer).toMatchObject({ name: stored?.organization.name, email: stored?.organization.email });
  });

  it('keeps partners apart when they set up the same internalOrgId at the same moment', async () => {
    const partners = await Promise.all([stack.createPartner(), stack.createPartner(), stack.createPartner()]);
    const responses = await Promise.all(
      partners.map(({ apiKey }) =>
        stack.post(SETUP, aSetupRequest().forOrg('common').forUser('common-user').build(), bearer(apiKey)),
      ),
    );

    expect(responses.map((r) => [r.status, r.body.data.isNewOrganization])).toEqual(Array(3).fill([200, true]));
    expect(new Set(responses.map((r) => r.body.data.organization.paymentCustomerId)).size).toBe(3);
    for (const [index, { partnerId }] of partners.entries()) {
      expect(responses[index]?.body.data.profile.partner).toBe(partnerId);
      expect(await stripeCustomersFor(partnerId, 'common')).toHaveLength(1);
    }
  });
});
