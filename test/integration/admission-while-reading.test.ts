/**
 * The handshake, setup and the sandbox order routes count a request against the rate
 * limit while they read, instead of after (issue 15: performance); these tests hold them
 * to the rules that made the sequential order safe: every authenticated request counts, a
 * 429 wins over any other answer, and nothing is written for a refused request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimited } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { ApiEndpoint } from '../../functions/api/pipeline/endpoints';
import { HANDSHAKE_ENDPOINT, SANDBOX_ORDER_CREATE_ENDPOINT, SANDBOX_ORDER_TRANSITION_ENDPOINT, SETUP_ENDPOINT } from '../../functions/api/pipeline/endpoints';
import { anItem, importDriftProducts } from '../support/order-pipeline';
import { scanTable } from '../support/inspect';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  await importDriftProducts(stack);
});
afterAll(() => stack.close());

type Step = { operation: string; table: string; phase: 'start' | 'end' };

/** Records every DynamoDB call's start and end; `hold` keeps calls matching it waiting until `release`. */
function traceDynamo(hold?: (step: Omit<Step, 'phase'>) => boolean) {
  const steps: Step[] = [];
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  const name = `trace-${Math.random().toString(36).slice(2)}`;
  const client = stack.deps.aws.db as unknown as { middlewareStack: { add(m: unknown, o: object): void; remove(n: string): boolean } };
  client.middlewareStack.add(
    (next: (args: { input: Record<string, any> }) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: Record<string, any> }) => {
        const operation = (context.commandName ?? '').replace(/Command$/, '');
        // Batch and transaction calls name their table inside: the first one named stands for the call.
        const first = (args.input.TransactItems?.[0] ?? {}) as Record<string, { TableName?: string }>;
        const named = args.input.TableName ?? Object.keys(args.input.RequestItems ?? {})[0] ?? Object.values(first)[0]?.TableName;
        const table = String(named ?? '').replace(/^t[0-9a-f]{8}-/, '');
        steps.push({ operation, table, phase: 'start' });
        if (hold?.({ operation, table })) await released;
        const result = await next(args);
        steps.push({ operation, table, phase: 'end' });
        return result;
      },
    { step: 'initialize', name },
  );
  return { steps, release, remove: () => client.middlewareStack.remove(name) };
}

const handshake = (apiKey: string, body: unknown) => stack.post('/v1/partner/handshake', body, { 'X-API-Key': apiKey });

async function exhaustLimit(partnerId: PartnerId): Promise<void> {
  const limiter = stack.deps.functions.handshake.rateLimiter;
  for (let i = 0; i < HANDSHAKE_ENDPOINT.limitPerMinute; i += 1) await limiter.consume(partnerId, 'handshake', HANDSHAKE_ENDPOINT.limitPerMinute);
}

describe('the handshake counts while it reads', () => {
  it('reads the profile while the rate-limit count is still under way', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partnerId);
    // The count is held until the profile read has begun: a handshake that counted first would wait here forever.
    const trace = traceDynamo(({ operation, table }) => operation === 'UpdateItem' && table === 'rate-limits');
    // (After 2 s it is released anyway, so a sequential handshake fails the assertions below instead of hanging.)
    const readStarted = new Promise<void>((done) => {
      const giveUp = Date.now() + 2000;
      const poll = setInterval(() => {
        if (Date.now() > giveUp || trace.steps.some((s) => s.table === 'organizations' && s.phase === 'start')) done(clearInterval(poll));
      }, 5);
    });
    const answer = handshake(apiKey, { profile_id: profile.id });
    await readStarted;
    trace.release();
    const res = await answer;
    trace.remove();

    expect(res.status).toBe(200);
    const order = trace.steps.map((s) => `${s.phase} ${s.operation} ${s.table}`);
    expect(order.indexOf('start GetItem organizations')).toBeLessThan(order.indexOf('end UpdateItem rate-limits'));
    // The token is written only once the count has answered.
    expect(order.indexOf('end UpdateItem rate-limits')).toBeLessThan(order.indexOf('start PutItem sessions'));
    expect(res.headers.get('ratelimit-remaining')).toBe(String(HANDSHAKE_ENDPOINT.limitPerMinute - 1));
  });

  it('answers 429 over the limit, whatever else the request would have got, and writes no token', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partnerId);
    await exhaustLimit(partnerId);
    const tokensBefore = (await scanTable(stack, 'sessions')).length;

    const valid = await handshake(apiKey, { profile_id: profile.id });
    const unknown = await handshake(apiKey, { profile_id: '00000000-0000-4000-8000-000000000000' });
    const invalid = await handshake(apiKey, { internal_user_id: 'u-1', profile_id: profile.id });

    for (const res of [valid, unknown, invalid]) {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
      expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after));
    }
    expect((await scanTable(stack, 'sessions')).length).toBe(tokensBefore);
  });

  it('counts requests that fail for other reasons', async () => {
    const { apiKey } = await stack.createPartner();
    const first = await handshake(apiKey, { profile_id: '00000000-0000-4000-8000-000000000000' });
    const second = await handshake(apiKey, {});
    expect([first.status, second.status]).toEqual([404, 400]);
    expect(second.headers.get('ratelimit-remaining')).toBe(String(HANDSHAKE_ENDPOINT.limitPerMinute - 2));
  });
});

describe('setup counts while it reads the organization', () => {
  it('answers 429 over the limit and writes nothing: no organization, no customer, no Idempotency-Key claim', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const limiter = stack.deps.functions.setup.rateLimiter;
    for (let i = 0; i < SETUP_ENDPOINT.limitPerMinute; i += 1) await limiter.consume(partnerId, 'setup', SETUP_ENDPOINT.limitPerMinute);
    const [organizationsBefore, claimsBefore] = [(await scanTable(stack, 'organizations')).length, (await scanTable(stack, 'idempotency')).length];

    const plain = await stack.post('/v1/organizations/setup', aSetupBody(), { Authorization: `Bearer ${apiKey}` });
    const keyed = await stack.post('/v1/organizations/setup', aSetupBody(), { Authorization: `Bearer ${apiKey}`, 'Idempotency-Key': 'over-the-limit' });
    const invalid = await stack.post('/v1/organizations/setup', { internalOrgId: '' }, { Authorization: `Bearer ${apiKey}` });

    for (const res of [plain, keyed, invalid]) {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retry_after: expect.any(Number) });
    }
    expect((await scanTable(stack, 'organizations')).length).toBe(organizationsBefore);
    expect((await scanTable(stack, 'idempotency')).length).toBe(claimsBefore);
  });
});

/** Resolves once a DynamoDB call matching `started` has begun, or after 2 s (so a sequential route fails its assertions instead of hanging). */
function whenStarted(trace: { steps: Step[] }, started: (step: Step) => boolean): Promise<void> {
  return new Promise<void>((done) => {
    const giveUp = Date.now() + 2000;
    const poll = setInterval(() => {
      if (Date.now() > giveUp || trace.steps.some((s) => s.phase === 'start' && started(s))) done(clearInterval(poll));
    }, 5);
  });
}

/** Counts requests into the partner's window until the limiter refuses one: whatever the window held, it is full. */
async function useUpLimit(partnerId: PartnerId, endpoint: ApiEndpoint): Promise<void> {
  const limiter = stack.deps.functions.ordersApi.rateLimiter;
  for (let i = 0; i <= endpoint.limitPerMinute; i += 1) {
    const refused = await limiter.consume(partnerId, endpoint.name, endpoint.limitPerMinute).then(
      () => false,
      (error: unknown) => error instanceof RateLimited || Promise.reject(error),
    );
    if (refused) return;
  }
}

describe('the sandbox order routes count while they read', () => {
  const orderingPartner = async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partnerId);
    const bearer = { Authorization: `Bearer ${apiKey}` };
    const place = () => stack.post('/v1/sandbox/orders', { profile_id: profile.id, items: [anItem('DRIFT-1999', 2)] }, bearer);
    const confirm = (orderId: string) => stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, bearer);
    return { partnerId, bearer, place, confirm };
  };
  const countHeld = () => traceDynamo(({ operation, table }) => operation === 'UpdateItem' && table === 'rate-limits');
  const orderIdOf = (res: { body: unknown }) => (res.body as { order: { id: string } }).order.id;

  it('placing an order reads the profile and the products while the count is under way, and writes after it', async () => {
    const { place } = await orderingPartner();
    const trace = countHeld();
    const answer = place();
    await whenStarted(trace, (s) => s.table === 'catalog');
    await whenStarted(trace, (s) => s.table === 'organizations');
    trace.release();
    const res = await answer;
    trace.remove();

    expect(res.status).toBe(201);
    const order = trace.steps.map((s) => `${s.phase} ${s.operation} ${s.table}`);
    expect(order.indexOf('start GetItem organizations')).toBeLessThan(order.indexOf('end UpdateItem rate-limits'));
    expect(order.indexOf('start BatchGetItem catalog')).toBeLessThan(order.indexOf('end UpdateItem rate-limits'));
    expect(order.indexOf('end UpdateItem rate-limits')).toBeLessThan(order.indexOf('start TransactWriteItems orders'));
    // The profile alone says it may sign in, as for the handshake: no identity-user read.
    expect(order.filter((step) => step.includes('identity-users'))).toEqual([]);
  });

  it('moving an order reads it while the count is under way, and writes after it', async () => {
    const { confirm, place } = await orderingPartner();
    const orderId = orderIdOf(await place());
    const trace = countHeld();
    const answer = confirm(orderId);
    await whenStarted(trace, (s) => s.table === 'orders');
    trace.release();
    const res = await answer;
    trace.remove();

    expect(res.status).toBe(200);
    const order = trace.steps.map((s) => `${s.phase} ${s.operation} ${s.table}`);
    expect(order.indexOf('start GetItem orders')).toBeLessThan(order.indexOf('end UpdateItem rate-limits'));
    expect(order.indexOf('end UpdateItem rate-limits')).toBeLessThan(order.indexOf('start TransactWriteItems orders'));
  });

  it('answers 429 over either limit, whatever else the request would have got, and writes no order and no change', async () => {
    const { partnerId, bearer, place, confirm } = await orderingPartner();
    const orderId = orderIdOf(await place());
    await useUpLimit(partnerId, SANDBOX_ORDER_CREATE_ENDPOINT);
    await useUpLimit(partnerId, SANDBOX_ORDER_TRANSITION_ENDPOINT);
    const ordersBefore = (await scanTable(stack, 'orders')).length;

    const refused = [
      await place(),
      await stack.post('/v1/sandbox/orders', { profile_id: '00000000-0000-4000-8000-000000000000', items: [anItem('DRIFT-1999')] }, bearer),
      await stack.post('/v1/sandbox/orders', { items: [] }, bearer),
      await confirm(orderId),
      await confirm('00000000-0000-4000-8000-000000000000'),
      await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, bearer),
    ];
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    }
    expect((await scanTable(stack, 'orders')).length).toBe(ordersBefore);
    expect((await stack.deps.functions.ordersApi.orderService.get(orderId, { partnerId })).status).toBe('pending');
  });
});
