import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startStallingProxy, type StallingProxy } from '../support/stalling-proxy';
import { startTestStack, type TestStack } from '../support/test-stack';

/**
 * A dependency that accepts connections and never answers: every request still gets its
 * endpoint's contract 500 (within the SDK bounds of request-bounds.ts, well inside the
 * function's timeout), and /health names what does not answer.
 */
let dynamodb: StallingProxy;
let stack: TestStack;
let apiKey: string;
beforeAll(async () => {
  const standIns = inject('standIns');
  dynamodb = await startStallingProxy(standIns.endpoints.dynamodb);
  stack = await startTestStack({
    standIns: { ...standIns, endpoints: { ...standIns.endpoints, dynamodb: dynamodb.url } },
  });
  ({ apiKey } = await stack.createPartner());
});
afterEach(() => dynamodb.resume());
afterAll(async () => {
  await stack.close();
  await dynamodb.close();
});

describe('a stalled DynamoDB', () => {
  it('gives setup its contract 500 instead of hanging, even for a key it cannot look up', async () => {
    dynamodb.stall();
    const res = await stack.post('/v1/organizations/setup', {}, { Authorization: `Bearer sk_test_${'0'.repeat(64)}` });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: 'Internal Server Error',
      message: 'Setup failed; retry with exponential backoff',
      code: 'SETUP_ERROR',
      details: [],
    });
  }, 20_000);

  it('gives the handshake its contract 500', async () => {
    dynamodb.stall();
    const res = await stack.post('/v1/partner/handshake', { internal_user_id: 'u-1' }, { 'X-API-Key': apiKey });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: 'Failed to create authentication session',
      details: 'The session could not be created; retry with exponential backoff',
    });
  }, 20_000);

  it('makes /health answer 503 naming DynamoDB, and ok again once it answers', async () => {
    dynamodb.stall();
    const stalled = await fetch(`${stack.url}/health`);
    expect(stalled.status).toBe(503);
    expect(await stalled.json()).toEqual({
      status: 'unavailable',
      dependencies: { dynamodb: 'not answering', sqs: 'ok', secretsManager: 'ok' },
    });
    dynamodb.resume();
    const healthy = await fetch(`${stack.url}/health`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({
      status: 'ok',
      dependencies: { dynamodb: 'ok', sqs: 'ok', secretsManager: 'ok' },
    });
  }, 20_000);
});
