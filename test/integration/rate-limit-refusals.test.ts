/**
 * The pipeline counts every authenticated request against its route's limit before the
 * handler runs: a 429 wins over any other answer, and a refused request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimited } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { type ApiRoute, apiRoute } from '../../functions/routes';
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

const HANDSHAKE = apiRoute('handshake');
const SETUP = apiRoute('setup');

const handshake = (apiKey: string, body: unknown) => stack.post('/v1/partner/handshake', body, { 'X-API-Key': apiKey });

async function exhaustLimit(partnerId: PartnerId): Promise<void> {
  const limiter = stack.deps.functions.handshake.rateLimiter;
  for (let i = 0; i < HANDSHAKE.limitPerMinute; i += 1)
    await limiter.consume(partnerId, HANDSHAKE.endpoint, HANDSHAKE.limitPerMinute);
}

describe('the handshake over its limit', () => {
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
    expect(second.headers.get('ratelimit-remaining')).toBe(String(HANDSHAKE.limitPerMinute - 2));
  });
});

describe('setup over its limit', () => {
  it('answers 429 over the limit and writes nothing: no organization, no customer, no Idempotency-Key claim', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const limiter = stack.deps.functions.setup.rateLimiter;
    for (let i = 0; i < SETUP.limitPerMinute; i += 1)
      await limiter.consume(partnerId, SETUP.endpoint, SETUP.limitPerMinute);
    const [organizationsBefore, claimsBefore] = [
      (await scanTable(stack, 'organizations')).length,
      (await scanTable(stack, 'idempotency')).length,
    ];

    const plain = await stack.post('/v1/organizations/setup', aSetupBody(), { Authorization: `Bearer ${apiKey}` });
    const keyed = await stack.post('/v1/organizations/setup', aSetupBody(), {
      Authorization: `Bearer ${apiKey}`,
      'Idempotency-Key': 'over-the-limit',
    });
    const invalid = await stack.post(
      '/v1/organizations/setup',
      { internalOrgId: '' },
      { Authorization: `Bearer ${apiKey}` },
    );

    for (const res of [plain, keyed, invalid]) {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retry_after: expect.any(Number) });
    }
    expect((await scanTable(stack, 'organizations')).length).toBe(organizationsBefore);
    expect((await scanTable(stack, 'idempotency')).length).toBe(claimsBefore);
  });
});

/** Counts requests into the partner's window until the limiter refuses one: whatever the window held, it is full. */
async function useUpLimit(partnerId: PartnerId, route: ApiRoute): Promise<void> {
  const limiter = stack.deps.functions.ordersApi.rateLimiter;
  for (let i = 0; i <= route.limitPerMinute; i += 1) {
    const refused = await limiter.consume(partnerId, route.endpoint, route.limitPerMinute).then(
      () => false,
      (error: unknown) => error instanceof RateLimited || Promise.reject(error),
    );
    if (refused) return;
  }
}

describe('the sandbox order routes over their limits', () => {
  it('answers 429 over either limit, whatever else the request would have got, and writes no order and no change', async () => {
    const { partnerId, apiKey } = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partnerId);
    const bearer = { Authorization: `Bearer ${apiKey}` };
    const place = () =>
      stack.post('/v1/sandbox/orders', { profile_id: profile.id, items: [anItem('DRIFT-1999', 2)] }, bearer);
    const confirm = (orderId: string) => stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, bearer);
    const orderId = ((await place()).body as { order: { id: string } }).order.id;
    await useUpLimit(partnerId, apiRoute('sandbox-order-create'));
    await useUpLimit(partnerId, apiRoute('sandbox-order-confirm'));
    const ordersBefore = (await scanTable(stack, 'orders')).length;

    const refused = [
      await place(),
      await stack.post(
        '/v1/sandbox/orders',
        { profile_id: '00000000-0000-4000-8000-000000000000', items: [anItem('DRIFT-1999')] },
        bearer,
      ),
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
