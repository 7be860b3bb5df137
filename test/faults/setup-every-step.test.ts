/**
 * Setup under a fault at every step, one at a time: each DynamoDB call and each Stripe
 * call of the request fails before it is applied, loses its answer after it was applied,
 * or stalls. test/integration/setup-failures.test.ts covers Stripe down, Stripe's answer
 * lost and the transaction failing, at the port level; this sweeps every call on the wire.
 *
 * After each fault: the tables hold no partial state anywhere (checkStoredModel), Stripe
 * holds at most one customer for the organization, and the partner's retry completes:
 * without an Idempotency-Key, 200, or 409 USER_ALREADY_EXISTS naming the very profile the
 * faulted call committed (docs/setup.md, "A lost answer"); with one, always the 200 of the
 * setup that committed (replayed) or of the retry itself. Exactly one Stripe customer
 * carries the details.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeCall,
  type FaultMode,
  FaultPlan,
  modesFor,
  injectAwsFaults,
  startStripeFaultProxy,
  type StripeFaultProxy,
} from '../support/fault-plan';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../functions/resources/resource-definitions';
import { stripeStandIn } from '../support/inspect';
import { aLocation, anAddress, aSetupRequest } from '../support/setup-request-builder';
import { checkStoredModel } from '../support/stored-model';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const SETUP_ERROR = {
  error: 'Internal Server Error',
  message: 'Setup failed; retry with exponential backoff',
  code: 'SETUP_ERROR',
  details: [],
};

const plan = new FaultPlan();
let proxy: StripeFaultProxy;
let stack: TestStack;
beforeAll(async () => {
  proxy = await startStripeFaultProxy(plan);
  stack = await startTestStack({ extraEnvironment: { STRIPE_API_BASE: proxy.url } });
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix: stack.config.RESOURCE_PREFIX });
  plan.stallMs = 30;
});
afterAll(async () => {
  await stack.close();
  await proxy.close();
});

interface Scenario {
  readonly name: string;
  readonly idempotencyKey: boolean;
  readonly existingOrganization: boolean;
  readonly modes: readonly FaultMode[];
}

interface Prepared {
  readonly partnerId: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, any>;
  readonly internalOrgId: string;
}

async function prepare(scenario: Scenario): Promise<Prepared> {
  const { partnerId, apiKey } = await stack.createPartner();
  const internalOrgId = `org-${randomUUID().slice(0, 8)}`;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${apiKey}`,
    ...(scenario.idempotencyKey ? { 'Idempotency-Key': `setup-${randomUUID()}` } : {}),
  };
  if (scenario.existingOrganization) {
    const founder = await stack.post(
      SETUP,
      aSetupRequest()
        .forOrg(internalOrgId)
        .forUser('founder')
        .withLocations(aLocation('hq', { isDefault: true }))
        .build(),
      {
        Authorization: headers.Authorization as string,
      },
    );
    expect(founder.status).toBe(200);
  }
  const body = aSetupRequest()
    .forOrg(internalOrgId, 'Acme Dental')
    .forUser(scenario.existingOrganization ? 'second' : 'first')
    .with({ organizationEmail: 'ap@acme.example.com', billingAddress: anAddress({ province: 'ca', city: 'Oakland' }) })
    .withLocations(aLocation('dock', { isDefault: true }), aLocation('annex'))
    .build();
  return { partnerId, headers, body, internalOrgId };
}

/** The request under test, with the plan recording (and possibly faulting) its calls only. */
async function faulted(prepared: Prepared, arm: () => void): Promise<TestResponse> {
  plan.reset();
  arm();
  try {
    return await stack.post(SETUP, prepared.body, prepared.headers);
  } finally {
    plan.disarm();
  }
}

/** What is stored for the organization: its partition's items by entity, and the identity users of its profiles. */
async function storedFor(prepared: Prepared) {
  const { Items: items = [] } = await stack.deps.aws.db.send(
    new QueryCommand({
      TableName: tableName(stack.config.RESOURCE_PREFIX, 'organizations'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `ORG#${prepared.partnerId}#${prepared.internalOrgId}` },
      ConsistentRead: true,
    }),
  );
  const profile = items.find((i) => i.entity === 'profile' && i.internalUserId === prepared.body.internalUserId);
  return { items, profile, entities: items.map((i) => i.entity as string).sort() };
}

async function sweep(scenario: Scenario) {
  // The calls a successful request makes: the steps to fault.
  const baseline = await prepare(scenario);
  const ok = await faulted(baseline, () => undefined);
  expect(ok.status).toBe(200);
  const steps = [...plan.calls];
  const complete = (await storedFor(baseline)).entities;
  const outcomes: string[] = [];

  for (const [index, step] of steps.entries()) {
    for (const mode of modesFor(step, scenario.modes)) {
      const label = `${scenario.name}, step ${index} ${describeCall(step)} ${mode}`;
      const prepared = await prepare(scenario);
      const before = await storedFor(prepared);
      const customersBefore = proxy.createdCustomers.length;

      const first = await faulted(prepared, () => plan.atStep(index, mode));
      expect(
        plan.injected.map((i) => describeCall(i.call)),
        label,
      ).toEqual([describeCall(step)]);
      if (mode === 'stall') {
        expect(first.status, label).toBe(200);
      } else if (first.status !== 200) {
        expect(first.status, label).toBe(500);
        expect(first.body, label).toEqual(SETUP_ERROR);
      }

      // Nothing half-written: the organization is as before, or complete.
      const after = await storedFor(prepared);
      const committed = after.profile !== undefined;
      expect(after.entities, label).toEqual(committed ? complete : before.entities);
      expect(new Set(proxy.createdCustomers.slice(customersBefore).map((c) => c.id)).size, label).toBeLessThanOrEqual(
        1,
      );

      // The partner retries (past any lapsed Idempotency-Key claim and rate-limit window).
      stack.clock.advance(61_000);
      const retried = await stack.post(SETUP, prepared.body, prepared.headers);
      if (scenario.idempotencyKey) {
        // The key completes in the setup's own transaction: whatever step failed, the retry
        // gets the 200 of the setup that committed (replayed), or runs it now.
        expect(retried.status, `${label}: ${retried.text}`).toBe(200);
        const replayed = first.status === 200 || committed;
        expect(retried.headers.get('idempotent-replayed') ?? 'no', label).toBe(replayed ? 'true' : 'no');
        if (first.status === 200) expect(retried.body, label).toEqual(first.body);
        if (committed) expect(retried.body.data.profile.id, label).toBe(after.profile?.id);
        const again = await stack.post(SETUP, prepared.body, prepared.headers);
        expect([again.status, again.body], label).toEqual([200, retried.body]);
      } else if (first.status === 200) {
        expect(retried.status, label).toBe(409);
      } else if (committed) {
        expect(retried.status, label).toBe(409);
        expect(retried.body, label).toMatchObject({
          code: 'USER_ALREADY_EXISTS',
          data: { profileId: after.profile?.id },
        });
      } else {
        expect(retried.status, `${label}: ${retried.text}`).toBe(200);
      }
      const final = await storedFor(prepared);
      expect(final.entities, label).toEqual(complete);

      if (!scenario.existingOrganization) {
        const customers = new Set(proxy.createdCustomers.slice(customersBefore).map((c) => c.id));
        expect(customers.size, label).toBe(1);
        const [customerId] = customers;
        const organization = final.items.find((i) => i.entity === 'organization');
        expect(organization?.paymentCustomerId, label).toBe(customerId);
        const customer = await stripeStandIn().customers.retrieve(customerId as string);
        expect(customer, label).toMatchObject({
          name: 'Acme Dental',
          email: 'ap@acme.example.com',
          address: { state: 'California' },
        });
      }
      outcomes.push(`${index}:${mode}→${first.status}/${retried.status}`);
    }
  }
  // No partial state anywhere: an orphan identity user or item of any earlier attempt shows here.
  expect((await checkStoredModel(stack)).problems).toEqual([]);
  console.log(
    `[faults] setup, ${scenario.name}: ${steps.length} steps × ${scenario.modes.join('/')} [${steps.map(describeCall).join(' → ')}] outcomes ${outcomes.join(' ')}`,
  );
  return steps.map(describeCall);
}

describe('setup with a fault at every step, one at a time (DynamoDB and Stripe calls)', () => {
  it('a new organization: no partial state after any fault, and the retry completes with one Stripe customer', async () => {
    const steps = await sweep({
      name: 'new organization',
      idempotencyKey: false,
      existingOrganization: false,
      modes: ['fail', 'lose', 'stall'],
    });
    expect(steps).toEqual(
      expect.arrayContaining([
        'stripe:POST /v1/customers',
        'stripe:POST /v1/customers/{id}',
        'dynamodb:TransactWriteItems(identity-users+organizations)',
      ]),
    );
  });

  it('a new organization with an Idempotency-Key: the retry after any fault replays the 200 of the setup that committed', async () => {
    const steps = await sweep({
      name: 'new organization + Idempotency-Key',
      idempotencyKey: true,
      existingOrganization: false,
      modes: ['fail', 'lose'],
    });
    // The claim, then the setup's transaction carrying the completion: no write after it can fail.
    expect(steps.slice(-1)).toEqual(['dynamodb:TransactWriteItems(idempotency+identity-users+organizations)']);
    expect(steps.filter((s) => s.includes('idempotency')).length).toBe(2);
  });

  it('a further user of an existing organization with an Idempotency-Key: the retry after any fault replays the 200', async () => {
    await sweep({
      name: 'existing organization + Idempotency-Key',
      idempotencyKey: true,
      existingOrganization: true,
      modes: ['fail', 'lose'],
    });
  });

  it('a further user of an existing organization: nothing added after any fault, the retry adds the profile once', async () => {
    const steps = await sweep({
      name: 'existing organization',
      idempotencyKey: false,
      existingOrganization: true,
      modes: ['fail', 'lose'],
    });
    expect(steps.some((s) => s.startsWith('stripe:'))).toBe(false);
  });
});
