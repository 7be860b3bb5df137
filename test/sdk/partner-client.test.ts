/**
 * The SDK against a running local stack: every method whose route is on this service
 * resolves to the documented success body (validated against docs/openapi.json), and
 * failures reject with the typed error a partner branches on. Waits between retries are
 * injected (they advance the stack's clock), so nothing here is timed.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PartnerAuthenticationError,
  PartnerClient,
  PartnerConflictError,
  PartnerInvalidRequestError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerTimeoutError,
} from '../../sdk/src/index';
import type { Scope } from '../../functions/domain/partners/partner';
import { schemaProblems } from '../support/api-document';
import { FaultyPayments } from '../support/fault-injection';
import { exhaustRateLimit } from '../support/rate-limit';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const payments = new FaultyPayments();
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ payments });
});
afterAll(() => stack?.close());

/** A client of a new partner, whose waits advance the stack's clock instead of passing, and which records what it sent. */
async function aClient(options: { scopes?: Scope[]; maxRetries?: number } = {}) {
  const partner = await stack.createPartner(options.scopes ? { scopes: options.scopes } : {});
  const sleeps: number[] = [];
  const sent: { method: string; path: string; headers: Headers }[] = [];
  const client = new PartnerClient({
    apiKey: partner.apiKey,
    baseUrl: stack.url,
    maxRetries: options.maxRetries ?? 2,
    sleep: async (ms) => {
      sleeps.push(ms);
      stack.clock.advance(ms);
    },
    fetch: (input, init) => {
      const url = new URL(String(input));
      sent.push({ method: init?.method ?? 'GET', path: url.pathname, headers: new Headers(init?.headers) });
      return fetch(input, init);
    },
  });
  return { client, partner, sleeps, sent };
}

const documented = (schema: string, value: unknown) =>
  schemaProblems({ $ref: `#/components/schemas/${schema}` }, value);

describe('PartnerClient on the local stack', () => {
  it('organizations.setup resolves to the documented setup body', async () => {
    const { client } = await aClient();
    const body = aSetupRequest().build();
    const result = await client.organizations.setup(body as never);
    expect(documented('SetupResponse', result)).toEqual([]);
    expect(result.data.organization.internalOrgId).toBe(body.internalOrgId);
    expect(result.data.isNewOrganization).toBe(true);
  });

  it('sessions.handshake resolves to the documented handshake body, by internal user id or by profile id', async () => {
    const { client } = await aClient();
    const body = aSetupRequest().build();
    const { data } = await client.organizations.setup(body as never);
    const byUser = await client.sessions.handshake({
      internalUserId: body.internalUserId,
      internalOrgId: body.internalOrgId,
    });
    const byProfile = await client.sessions.handshake({ profileId: data.profile.id });
    for (const session of [byUser, byProfile]) {
      expect(documented('HandshakeResponse', session)).toEqual([]);
      expect(session.profile.id).toBe(data.profile.id);
    }
    expect(byUser.session_key).not.toBe(byProfile.session_key);
  });

  it('retries a 429 once, after at least retry_after, then resolves', async () => {
    const { client, partner, sleeps, sent } = await aClient();
    await exhaustRateLimit(stack, partner.partnerId, 'setup', 100);
    const retryAfterSeconds = Math.ceil((60_000 - (stack.clock.now().getTime() % 60_000)) / 1000);

    const result = await client.organizations.setup(aSetupRequest().build() as never);

    expect(result.success).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(retryAfterSeconds * 1000);
  });

  it('retries a setup that answered 500 with the same Idempotency-Key, and provisions once', async () => {
    const { client, sleeps, sent } = await aClient();
    const body = aSetupRequest().build();
    payments.failNextCall();

    const result = await client.organizations.setup(body as never);

    expect(result.data.isNewOrganization).toBe(true);
    expect(sent.map((request) => request.path)).toEqual(['/v1/organizations/setup', '/v1/organizations/setup']);
    const keys = sent.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(sleeps).toHaveLength(1);
  });

  it('uses the Idempotency-Key it is given, so a repeat answers the first result', async () => {
    const { client } = await aClient();
    const body = aSetupRequest().build();
    const first = await client.organizations.setup(body as never, { idempotencyKey: `setup-${body.internalOrgId}` });
    const again = await client.organizations.setup(body as never, { idempotencyKey: `setup-${body.internalOrgId}` });
    expect(again).toEqual(first);
  });

  it('rejects with PartnerTimeoutError when no answer comes within timeoutMs, after its retries', async () => {
    const silent: Server = createServer(() => {}); // accepts, never answers
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    try {
      let attempts = 0;
      const client = new PartnerClient({
        apiKey: 'sk_test_x',
        baseUrl: `http://127.0.0.1:${port}`,
        timeoutMs: 50,
        maxRetries: 1,
        sleep: async () => {},
        fetch: (input, init) => {
          attempts += 1;
          return fetch(input, init);
        },
      });
      const failure = await client.sessions.handshake({ internalUserId: 'u-1' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PartnerTimeoutError);
      expect(failure).toMatchObject({ name: 'PartnerTimeoutError', status: undefined });
      expect(attempts).toBe(2);
    } finally {
      silent.closeAllConnections();
      await new Promise((done) => silent.close(done));
    }
  });

  describe('typed errors carry status, code, message and the Request-Id', () => {
    const failureOf = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail('expected a rejection'),
        (error: unknown) => error as Record<string, unknown>,
      );

    it('400: PartnerInvalidRequestError with every problem in details', async () => {
      const { client, sent } = await aClient();
      const error = await failureOf(
        client.organizations.setup(aSetupRequest().forUser('u-1', { email: 'nope' }).build() as never),
      );
      expect(error).toBeInstanceOf(PartnerInvalidRequestError);
      expect(error).toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        details: [{ code: 'INVALID_EMAIL', path: ['user', 'email'] }],
      });
      expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(sent).toHaveLength(1); // a 400 is not retried
    });

    it('400 from the handshake: its { error, details } body becomes the same fields', async () => {
      const { client } = await aClient();
      const error = await failureOf(client.sessions.handshake({ profileId: 'not-a-uuid' }));
      expect(error).toBeInstanceOf(PartnerInvalidRequestError);
      expect(error).toMatchObject({
        status: 400,
        code: undefined,
        details: [{ code: 'INVALID_UUID', path: ['profile_id'] }],
      });
      expect(error.message).toMatch(/^Invalid request body: profile_id must be a UUID/);
    });

    it('401: PartnerAuthenticationError', async () => {
      const client = new PartnerClient({ apiKey: `sk_test_${'0'.repeat(64)}`, baseUrl: stack.url });
      const error = await failureOf(client.sessions.handshake({ internalUserId: 'u-1' }));
      expect(error).toBeInstanceOf(PartnerAuthenticationError);
      expect(error).toMatchObject({
        name: 'PartnerAuthenticationError',
        status: 401,
        code: 'UNAUTHORIZED',
        message: 'Invalid or missing API key',
      });
      expect(error.requestId).toBeTruthy();
    });

    it('403: PartnerPermissionError', async () => {
      const { client } = await aClient({ scopes: ['session:write'] });
      const error = await failureOf(client.organizations.setup(aSetupRequest().build() as never));
      expect(error).toBeInstanceOf(PartnerPermissionError);
      expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });

    it('404: PartnerNotFoundError', async () => {
      const { client } = await aClient();
      const error = await failureOf(client.sessions.handshake({ internalUserId: 'nobody' }));
      expect(error).toBeInstanceOf(PartnerNotFoundError);
      expect(error).toMatchObject({
        status: 404,
        message: 'Profile not found: No profile with internal_user_id nobody',
      });
    });

    it('409: PartnerConflictError with the body’s data', async () => {
      const { client } = await aClient();
      const body = aSetupRequest().build();
      const { data } = await client.organizations.setup(body as never);
      const error = await failureOf(client.organizations.setup(body as never));
      expect(error).toBeInstanceOf(PartnerConflictError);
      expect(error).toMatchObject({
        status: 409,
        code: 'USER_ALREADY_EXISTS',
        body: { data: { profileId: data.profile.id } },
      });
    });
  });
});
