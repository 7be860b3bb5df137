import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { faultyDynamoDb, FaultyPayments } from '../support/fault-injection';
import { scanTable, stripeCustomersFor } from '../support/inspect';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const DAY_MS = 24 * 60 * 60 * 1000;

let stack: TestStack;
const payments = new FaultyPayments();
const dynamo = faultyDynamoDb();
beforeAll(async () => {
  stack = await startTestStack({ payments, organizationsDb: dynamo.client });
});
afterAll(() => stack.close());
afterEach(() => payments.reset());

async function partnerWithKeyedSetup() {
  const { partnerId, apiKey } = await stack.createPartner();
  const setup = (body: unknown, key?: string) =>
    stack.post(SETUP, body, {
      Authorization: `Bearer ${apiKey}`,
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    });
  return { partnerId, setup };
}

const profilesOf = async (partnerId: string) =>
  (await scanTable(stack, 'organizations')).filter((i) => i.entity === 'profile' && i.partnerId === partnerId);

describe('Idempotency-Key (beyond the contract, as Stripe does it)', () => {
  it('replays the first response, status and body, for a retry with the same key and body', async () => {
    const { partnerId, setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().withLocations(aLocation('l-1')).build();

    const first = await setup(body, 'key-1');
    stack.clock.advance(DAY_MS - 1000);
    const replay = await setup(body, 'key-1');

    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await profilesOf(partnerId)).toHaveLength(1);
  });

  it('replays 409 and 400 validation outcomes too', async () => {
    const { setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    await setup(body);
    const conflict = await setup(body, 'dup-key');
    const conflictReplay = await setup(body, 'dup-key');
    expect(conflict.status).toBe(409);
    expect([conflictReplay.status, conflictReplay.text]).toEqual([409, conflict.text]);

    const invalid = { ...aSetupRequest().build(), user: { email: 'nope' } };
    const rejected = await setup(invalid, 'bad-key');
    const rejectedReplay = await setup(invalid, 'bad-key');
    expect(rejected.status).toBe(400);
    expect(rejectedReplay.headers.get('idempotent-replayed')).toBe('true');
    expect(rejectedReplay.text).toBe(rejected.text);
  });

  it('treats bodies that differ only in key order or whitespace as the same request', async () => {
    const { setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    const first = await setup(body, 'order-key');
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await setup(JSON.stringify(reordered, null, 2), 'order-key');
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
  });

  it('answers 400 IDEMPOTENCY_KEY_REUSED in the setup error shape for the same key with a different body', async () => {
    const { setup } = await partnerWithKeyedSetup();
    await setup(aSetupRequest().build(), 'reused');
    const res = await setup(aSetupRequest().build(), 'reused');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Validation Error',
      message: expect.any(String),
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: [],
    });
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request with the key is still running, then replays it', async () => {
    const { partnerId, setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    const hold = payments.holdNextCall();
    const first = setup(body, 'slow');
    await hold.entered;

    const second = await setup(body, 'slow');
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: 'Conflict',
      message: expect.any(String),
      code: 'IDEMPOTENCY_KEY_IN_USE',
      details: [],
    });

    hold.release();
    expect((await first).status).toBe(200);
    const third = await setup(body, 'slow');
    expect([third.status, third.text]).toEqual([200, (await first).text]);
    expect(await stripeCustomersFor(partnerId, body.internalOrgId)).toHaveLength(1);
  });

  it('frees the key after a 500 so the retry with the same key runs and succeeds', async () => {
    const { setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    dynamo.failNextTransactions();
    const failed = await setup(body, 'flaky');
    const retried = await setup(body, 'flaky');
    expect(failed.status).toBe(500);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys per partner', async () => {
    const one = await partnerWithKeyedSetup();
    const two = await partnerWithKeyedSetup();
    const a = await one.setup(aSetupRequest().build(), 'shared-key');
    const b = await two.setup(aSetupRequest().build(), 'shared-key');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.data.profile.partner).toBe(two.partnerId);
  });

  it('forgets a key after 24 hours, even though DynamoDB Local never deletes the record', async () => {
    const { setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    await setup(body, 'old-key');
    const [record] = (await scanTable(stack, 'idempotency')).filter((r) => String(r.pk).endsWith('#old-key'));
    expect(record?.ttl).toBe(Math.floor((stack.clock.now().getTime() + DAY_MS) / 1000));

    stack.clock.advance(DAY_MS);
    const rerun = await setup(body, 'old-key');
    expect(rerun.status).toBe(409);
    expect(rerun.body.code).toBe('USER_ALREADY_EXISTS');
    const otherBody = await setup(aSetupRequest().build(), 'old-key');
    expect(otherBody.status).toBe(400);
    expect(otherBody.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('lets the key be used again once the claim of a request that died in flight has lapsed', async () => {
    const { partnerId, setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    // A request that claimed the key and then crashed (its Lambda timed out) never settles it.
    await stack.deps.functions.setup.idempotency.begin(`setup#${partnerId}`, 'crashed', body);

    expect((await setup(body, 'crashed')).status).toBe(409);
    stack.clock.advance(61_000);
    expect((await setup(body, 'crashed')).status).toBe(200);
  });

  it('answers 400 VALIDATION_ERROR for a key that is too long or not printable ASCII', async () => {
    const { setup } = await partnerWithKeyedSetup();
    const res = await setup(aSetupRequest().build(), 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Validation Error',
      message: expect.any(String),
      code: 'VALIDATION_ERROR',
      details: [
        {
          code: 'TOO_LONG',
          message: 'Idempotency-Key header must be at most 255 characters',
          path: ['headers', 'Idempotency-Key'],
        },
      ],
    });
    expect((await setup(aSetupRequest().build(), 'tab\there')).body.details[0].code).toBe('INVALID_FORMAT');
  });

  it('changes nothing for requests without the header', async () => {
    const { setup } = await partnerWithKeyedSetup();
    const body = aSetupRequest().build();
    expect((await setup(body)).status).toBe(200);
    expect((await setup(body)).status).toBe(409);
  });
});
