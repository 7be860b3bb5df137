/**
 * The handshake counts a request against the rate limit while it reads the profile,
 * instead of after (issue: performance); these tests hold it to the rules that made the
 * sequential order safe: every authenticated request counts, a 429 wins over any other
 * answer, and nothing is written for a refused request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { HANDSHAKE_ENDPOINT, SETUP_ENDPOINT } from '../../functions/http/endpoints';
import { scanTable } from '../support/inspect';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
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
        const table = String(args.input.TableName ?? '').replace(/^t[0-9a-f]{8}-/, '');
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
