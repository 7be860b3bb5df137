import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { faultyDynamoDb, FaultyPayments } from '../support/fault-injection';
import { scanTable, stripeCustomersFor } from '../support/inspect';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const SETUP_ERROR = {
  error: 'Internal Server Error',
  message: 'Setup failed; retry with exponential backoff',
  code: 'SETUP_ERROR',
  details: [],
};

let stack: TestStack;
const payments = new FaultyPayments();
const dynamo = faultyDynamoDb();
beforeAll(async () => {
  stack = await startTestStack({ payments, organizationsDb: dynamo.client });
});
afterAll(() => stack.close());
afterEach(() => payments.reset());

/** Everything stored for this partner's organization, in both tables setup writes. */
async function storedFor(partnerId: string, internalOrgId: string) {
  const organizations = (await scanTable(stack, 'organizations')).filter(
    (item) =>
      item.pk === `ORG#${partnerId}#${internalOrgId}` ||
      (item.partnerId === partnerId && item.internalOrgId === internalOrgId),
  );
  const users = (await scanTable(stack, 'identityUsers')).filter((user) => user.partnerId === partnerId);
  return { organizations, users };
}

describe('failures during setup (contract: 500 SETUP_ERROR, retry with backoff)', () => {
  it('answers 500 SETUP_ERROR and writes nothing when Stripe is down; the retry succeeds', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const body = aSetupRequest().forOrg('stripe-down').withLocations(aLocation('l-1')).build();
    payments.failNextCall();

    const failed = await stack.post(SETUP, body, bearer(apiKey));

    expect(failed.status).toBe(500);
    expect(failed.body).toEqual(SETUP_ERROR);
    expect(failed.text).not.toMatch(/stripe|ECONNREFUSED/i);
    expect(await storedFor(partnerId, 'stripe-down')).toEqual({ organizations: [], users: [] });
    expect(await stripeCustomersFor(partnerId, 'stripe-down')).toEqual([]);
    expect(stack.logs.find((l) => l.requestId === failed.headers.get('request-id'))).toMatchObject({
      level: 'error',
      status: 500,
    });

    const retried = await stack.post(SETUP, body, bearer(apiKey));
    expect(retried.status).toBe(200);
    expect(await stripeCustomersFor(partnerId, 'stripe-down')).toHaveLength(1);
  });

  it('reuses the customer Stripe created when its answer was lost', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const body = aSetupRequest().forOrg('lost-answer').build();
    payments.loseNextAnswer();

    expect((await stack.post(SETUP, body, bearer(apiKey))).status).toBe(500);
    const [created] = await stripeCustomersFor(partnerId, 'lost-answer');
    expect(created).toBeDefined();
    expect(await storedFor(partnerId, 'lost-answer')).toEqual({ organizations: [], users: [] });

    const retried = await stack.post(SETUP, body, bearer(apiKey));
    expect(retried.status).toBe(200);
    expect(retried.body.data.organization.paymentCustomerId).toBe(created?.id);
    expect(await stripeCustomersFor(partnerId, 'lost-answer')).toHaveLength(1);
  });

  it('answers 500 and leaves no organization, profile, user or location behind when the DynamoDB transaction fails; the retry keeps the one customer', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const body = aSetupRequest()
      .forOrg('dynamo-down')
      .withLocations(aLocation('l-1', { isDefault: true }), aLocation('l-2'))
      .build();
    dynamo.failNextTransactions();

    const failed = await stack.post(SETUP, body, bearer(apiKey));

    expect(failed.status).toBe(500);
    expect(failed.body).toEqual(SETUP_ERROR);
    expect(failed.text).not.toMatch(/dynamo|injected|table/i);
    expect(await storedFor(partnerId, 'dynamo-down')).toEqual({ organizations: [], users: [] });
    const [customer, ...more] = await stripeCustomersFor(partnerId, 'dynamo-down');
    expect(more).toEqual([]);

    stack.clock.advance(5 * 60_000);
    const retried = await stack.post(SETUP, body, bearer(apiKey));
    expect(retried.status).toBe(200);
    expect(retried.body.data.isNewOrganization).toBe(true);
    expect(retried.body.data.organization.paymentCustomerId).toBe(customer?.id);
    expect(await stripeCustomersFor(partnerId, 'dynamo-down')).toHaveLength(1);
    const stored = await storedFor(partnerId, 'dynamo-down');
    expect(stored.organizations.map((i) => i.entity).sort()).toEqual(
      ['default-location', 'location', 'location', 'organization', 'profile', 'profile-by-id'].sort(),
    );
    expect(stored.users).toHaveLength(1);
  });

  it('adds nothing to an existing organization when the transaction fails, and the retry adds the profile once', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    await stack.post(SETUP, aSetupRequest().forOrg('existing').forUser('founder').build(), bearer(apiKey));
    const before = await storedFor(partnerId, 'existing');
    const body = aSetupRequest().forOrg('existing').forUser('second').withLocations(aLocation('annex')).build();
    dynamo.failNextTransactions();

    const failed = await stack.post(SETUP, body, bearer(apiKey));

    expect(failed.status).toBe(500);
    expect(failed.body).toEqual(SETUP_ERROR);
    expect(await storedFor(partnerId, 'existing')).toEqual(before);

    const retried = await stack.post(SETUP, body, bearer(apiKey));
    expect(retried.status).toBe(200);
    expect(retried.body.data.shippingLocations.map((l: any) => l.internalShippingLocationId)).toEqual(['annex']);
    const after = await storedFor(partnerId, 'existing');
    expect(after.organizations.filter((i) => i.entity === 'profile')).toHaveLength(2);
    expect(after.users).toHaveLength(2);
  });

  it('retries a transaction that lost to a concurrent one and answers 200', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    dynamo.conflictNextTransactions(2);
    const res = await stack.post(SETUP, aSetupRequest().forOrg('conflicted').build(), bearer(apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data.isNewOrganization).toBe(true);
    expect(await stripeCustomersFor(partnerId, 'conflicted')).toHaveLength(1);
  });

  it('gives up with 500 after losing five times in a row, having written nothing', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    dynamo.conflictNextTransactions(5);
    const res = await stack.post(SETUP, aSetupRequest().forOrg('hopeless').build(), bearer(apiKey));
    expect(res.status).toBe(500);
    expect(res.body).toEqual(SETUP_ERROR);
    expect(await storedFor(partnerId, 'hopeless')).toEqual({ organizations: [], users: [] });
    expect(stack.logs.find((l) => l.requestId === res.headers.get('request-id'))).toMatchObject({
      level: 'error',
      failure: 'SetupContention',
    });
  });

  it('does not call Stripe at all for an existing organization', async () => {
    const { apiKey } = await stack.createPartner();
    await stack.post(SETUP, aSetupRequest().forOrg('no-stripe').forUser('a').build(), bearer(apiKey));
    const calls = payments.calls;
    payments.failNextCall();
    const res = await stack.post(SETUP, aSetupRequest().forOrg('no-stripe').forUser('b').build(), bearer(apiKey));
    expect(res.status).toBe(200);
    expect(payments.calls).toBe(calls);
  });
});
