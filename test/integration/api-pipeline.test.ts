import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../functions/domain/errors';
import { jsonBody } from '../../functions/api/pipeline/json-body';
import { tableName } from '../../functions/resources/resource-definitions';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const xApiKey = (key: string) => ({ 'X-API-Key': key });

/** `count` requests all at once: the limiter's one atomic counter must count every one. */
const allAtOnce = <T>(count: number, send: () => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: count }, send));

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

describe('authentication (contract: Authentication 3-5)', () => {
  it('answers 401 UNAUTHORIZED in the general error body when setup has no key', async () => {
    const res = await stack.post(SETUP, {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', message: expect.any(String), code: 'UNAUTHORIZED', details: [] });
  });

  it('answers 401 when setup gets its key in X-API-Key instead of Authorization: Bearer', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, {}, xApiKey(apiKey));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('answers 401 for an Authorization header that is not a Bearer token', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, {}, { Authorization: `Basic ${apiKey}` });
    expect(res.status).toBe(401);
  });

  it('answers 401 with a message when the handshake gets Authorization: Bearer instead of X-API-Key', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(HANDSHAKE, { internal_user_id: 'u-1' }, bearer(apiKey));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'Unauthorized', message: expect.stringContaining('X-API-Key') });
  });

  it('answers 401 for a production key on the sandbox', async () => {
    const res = await stack.post(SETUP, {}, bearer(`sk_live_${'a'.repeat(64)}`));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('answers 401 for a well-formed but unknown sandbox key', async () => {
    const res = await stack.post(HANDSHAKE, { internal_user_id: 'u-1' }, xApiKey(`sk_test_${'b'.repeat(64)}`));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Unauthorized');
  });

  it('answers every key problem with the same message, so a revoked or other-environment key cannot be told from an unknown one', async () => {
    const revoked = await stack.createPartner();
    await stack.deps.partnerAdmin.revokeKey(revoked.partnerId, revoked.keyId as never);
    const answers = await Promise.all([
      stack.post(SETUP, {}),
      stack.post(SETUP, {}, bearer('sk_test_short')),
      stack.post(SETUP, {}, bearer(`sk_test_${'b'.repeat(64)}`)),
      stack.post(SETUP, {}, bearer(`sk_live_${'a'.repeat(64)}`)),
      stack.post(SETUP, {}, bearer(revoked.apiKey)),
      stack.post(HANDSHAKE, { internal_user_id: 'u-1' }, xApiKey(revoked.apiKey)),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'Unauthorized',
        message: 'Invalid or missing API key',
        code: 'UNAUTHORIZED',
        details: [],
      });
    }
    // The operator still sees which check failed.
    const reasons = answers.map(
      (res) => stack.logs.find((line) => line.requestId === res.headers.get('request-id'))?.reason,
    );
    expect(reasons).toEqual([
      'Missing API key',
      'Malformed API key',
      'Unknown API key',
      'API key of the other environment',
      'API key revoked',
      'API key revoked',
    ]);
  });

  it('says what to send when the header is wrong: the other header, both headers', async () => {
    const { apiKey } = await stack.createPartner();
    expect((await stack.post(SETUP, {}, xApiKey(apiKey))).body.message).toBe(
      'Use the Authorization: Bearer header on this endpoint',
    );
    expect((await stack.post(HANDSHAKE, {}, bearer(apiKey))).body.message).toBe(
      'Use the X-API-Key header on this endpoint',
    );
    expect((await stack.post(SETUP, {}, { ...bearer(apiKey), ...xApiKey(apiKey) })).body.message).toBe(
      'Send the API key in one header only',
    );
  });

  it('refuses the old key at once after rotation and accepts the new one', async () => {
    const partner = await stack.createPartner();
    const rotated = await stack.deps.partnerAdmin.rotateKey(partner.partnerId, partner.keyId as never);
    expect((await stack.post(SETUP, {}, bearer(partner.apiKey))).status).toBe(401);
    expect((await stack.post(SETUP, {}, bearer(rotated.apiKey))).status).toBe(400);
  });

  it('refuses a revoked key', async () => {
    const partner = await stack.createPartner();
    await stack.deps.partnerAdmin.revokeKey(partner.partnerId, partner.keyId as never);
    expect((await stack.post(HANDSHAKE, { internal_user_id: 'x' }, xApiKey(partner.apiKey))).status).toBe(401);
  });

  it('answers 403 FORBIDDEN when the key lacks organization:write on setup', async () => {
    const { apiKey } = await stack.createPartner({ scopes: ['session:write'] });
    const res = await stack.post(SETUP, {}, bearer(apiKey));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'Forbidden',
      message: expect.stringContaining('organization:write'),
      code: 'FORBIDDEN',
      details: [],
    });
  });

  it('answers 403 when the key lacks session:write on the handshake', async () => {
    const { apiKey } = await stack.createPartner({ scopes: ['organization:write'] });
    const res = await stack.post(HANDSHAKE, { internal_user_id: 'u-1' }, xApiKey(apiKey));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Forbidden');
  });
});

describe('malformed requests', () => {
  it('answers 400 VALIDATION_ERROR on setup for malformed JSON', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, '{"internalOrgId": ', bearer(apiKey));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Validation Error',
      message: expect.any(String),
      code: 'VALIDATION_ERROR',
      details: [{ code: 'MALFORMED_JSON', message: expect.any(String), path: [] }],
    });
  });

  it('answers 400 "Invalid request body" on the handshake for a JSON array', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(HANDSHAKE, '[1,2]', xApiKey(apiKey));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request body',
      details: [{ code: 'INVALID_BODY', message: expect.any(String), path: [] }],
    });
  });

  it.each([['null'], ['"text"'], ['42'], ['']])('answers 400 on setup for the body %j', async (body) => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, body, bearer(apiKey));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('answers 400 BODY_TOO_LARGE for a body over 64 KiB', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, { organizationName: 'x'.repeat(70 * 1024) }, bearer(apiKey));
    expect(res.status).toBe(400);
    expect(res.body.details[0].code).toBe('BODY_TOO_LARGE');
  });

  describe('a body that is not UTF-8', () => {
    /** `{"internalOrgId":"acme<bytes>"}`, sent as raw bytes. */
    const withBytes = (...bytes: number[]) =>
      Buffer.concat([
        Buffer.from('{"internalOrgId":"acme'),
        Buffer.from(bytes),
        Buffer.from('","internal_user_id":"u-1"}'),
      ]);
    const postBytes = async (path: string, body: Buffer, headers: Record<string, string>) => {
      const res = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: new Uint8Array(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const NOT_UTF8: [string, number[]][] = [
      ['a lone continuation byte', [0x80]],
      ['a truncated sequence', [0xe2, 0x82]],
      ['an overlong encoding of "/"', [0xc0, 0xaf]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a byte never used in UTF-8', [0xff]],
    ];

    it.each(NOT_UTF8)('answers 400 INVALID_UTF8 on setup, in the general error shape, for %s', async (_name, bytes) => {
      const { apiKey } = await stack.createPartner();
      const res = await postBytes(SETUP, withBytes(...bytes), bearer(apiKey));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation Error',
        message: expect.any(String),
        code: 'VALIDATION_ERROR',
        details: [{ code: 'INVALID_UTF8', message: 'The request body is not valid UTF-8', path: [] }],
      });
    });

    it('answers 400 INVALID_UTF8 on the handshake, in its own error shape', async () => {
      const { apiKey } = await stack.createPartner();
      const res = await postBytes(HANDSHAKE, withBytes(0xff), xApiKey(apiKey));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Invalid request body',
        details: [{ code: 'INVALID_UTF8', message: 'The request body is not valid UTF-8', path: [] }],
      });
    });

    it('takes well-formed UTF-8 beyond ASCII as it is', async () => {
      const { apiKey } = await stack.createPartner();
      const res = await postBytes(HANDSHAKE, withBytes(...Buffer.from('é😀')), xApiKey(apiKey));
      expect(res.status).not.toBe(400);
    });

    it('refuses a body API Gateway hands over as text with a lone surrogate', () => {
      const request = {
        event: { body: '{"internalOrgId":"acme\ud800"}', isBase64Encoded: false, headers: {} },
        context: {},
      } as never;
      expect(() => (jsonBody('required').before as (request: never) => void)(request)).toThrow(ValidationFailed);
    });
  });

  it('answers 400 for a non-JSON content type', async () => {
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, 'a=b', {
      ...bearer(apiKey),
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].code).toBe('UNSUPPORTED_CONTENT_TYPE');
  });
});

describe('request ids, CORS and logs', () => {
  it('puts a Request-Id header on every response, failures included', async () => {
    const unauthorized = await stack.post(SETUP, {});
    const { apiKey } = await stack.createPartner();
    const invalid = await stack.post(SETUP, '{', bearer(apiKey));
    const ids = [unauthorized, invalid].map((r) => r.headers.get('request-id'));
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it('sends no CORS headers and answers no preflight, so browsers cannot call the API', async () => {
    const preflight = await fetch(`${stack.url}${SETUP}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const { apiKey } = await stack.createPartner();
    const res = await stack.post(SETUP, {}, { ...bearer(apiKey), Origin: 'https://evil.example' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('logs one line per request with partner, endpoint, status, ip, request id and latency, never the key', async () => {
    const { apiKey, partnerId } = await stack.createPartner();
    const res = await stack.post(SETUP, '{', bearer(apiKey));
    const line = stack.logs.find((l) => l.requestId === res.headers.get('request-id'));
    expect(line).toMatchObject({
      msg: 'api_request',
      partnerId,
      endpoint: 'setup',
      status: 400,
      ip: '127.0.0.1',
      timestamp: expect.any(String),
      latencyMs: expect.any(Number),
    });
    await stack.post(SETUP, {}, bearer(`sk_live_${'c'.repeat(64)}`));
    const everything = stack.rawLogLines.join('\n');
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toMatch(/sk_(live|test)_[0-9a-f]{8}/);
  });
});

describe('rate limits (contract: Limits; docs/architecture.md, "Rate limits": per partner, per endpoint, fixed window)', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED after 100 setup requests in a minute, with retry_after and headers', async () => {
    const { apiKey } = await stack.createPartner();
    // 43 s into a minute: the window closes in 17 s, and that is what the partner is told.
    const minute = Math.floor(stack.clock.now().getTime() / 60_000) * 60_000;
    stack.clock.set(new Date(minute + 60_000 + 43_000));
    const statuses: number[] = [];
    for (let i = 0; i < 100; i += 1) statuses.push((await stack.post(SETUP, '{', bearer(apiKey))).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);

    const limited = await stack.post(SETUP, '{', bearer(apiKey));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: 'Too Many Requests',
      message: expect.any(String),
      code: 'RATE_LIMIT_EXCEEDED',
      details: [],
      retry_after: 17,
    });
    expect(limited.headers.get('retry-after')).toBe('17');
    expect(limited.headers.get('ratelimit-reset')).toBe('17');
    expect(limited.headers.get('ratelimit-limit')).toBe('100');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('request-id')).toBeTruthy();
  });

  it('counts per partner and per endpoint, survives key rotation, and resets with the next window', async () => {
    const partner = await stack.createPartner();
    const other = await stack.createPartner();
    await allAtOnce(100, () => stack.post(SETUP, '{', bearer(partner.apiKey)));

    const rotated = await stack.deps.partnerAdmin.rotateKey(partner.partnerId, partner.keyId as never);
    expect((await stack.post(SETUP, '{', bearer(rotated.apiKey))).status).toBe(429);
    expect((await stack.post(SETUP, '{', bearer(other.apiKey))).status).toBe(400);
    expect((await stack.post(HANDSHAKE, '{', xApiKey(rotated.apiKey))).status).toBe(400);

    stack.clock.advance(60_000);
    expect((await stack.post(SETUP, '{', bearer(rotated.apiKey))).status).toBe(400);
  });

  it('allows 300 handshakes a minute', async () => {
    const { apiKey } = await stack.createPartner();
    const responses = await allAtOnce(300, () => stack.post(HANDSHAKE, '{', xApiKey(apiKey)));
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.filter((s) => s !== 400),
      JSON.stringify(responses.find((r) => r.status !== 400)?.body),
    ).toEqual([]);
    const limited = await stack.post(HANDSHAKE, '{', xApiKey(apiKey));
    expect(limited.status).toBe(429);
    // The general error body, as for authentication failures: details is always there.
    expect(limited.body).toEqual({
      error: 'Too Many Requests',
      message: expect.any(String),
      code: 'RATE_LIMIT_EXCEEDED',
      details: [],
      retry_after: expect.any(Number),
    });
  });
});

describe('unexpected failures', () => {
  it('answers the endpoint 500 body without internals when a store fails', async () => {
    const broken = await startTestStack();
    try {
      const { apiKey } = await broken.createPartner();
      await broken.deps.aws.db.send(
        new DeleteTableCommand({ TableName: tableName(broken.config.RESOURCE_PREFIX, 'rateLimits') }),
      );
      const setup = await broken.post(SETUP, {}, bearer(apiKey));
      expect(setup.status).toBe(500);
      expect(setup.body).toEqual({
        error: 'Internal Server Error',
        message: 'Setup failed; retry with exponential backoff',
        code: 'SETUP_ERROR',
        details: [],
      });
      const handshake = await broken.post(HANDSHAKE, {}, xApiKey(apiKey));
      expect(handshake.status).toBe(500);
      expect(handshake.body).toEqual({ error: 'Failed to create authentication session', details: expect.any(String) });
      expect(setup.text + handshake.text).not.toMatch(/table|dynamo|resource/i);
      expect(broken.logs.some((l) => l.level === 'error' && l.requestId === setup.headers.get('request-id'))).toBe(
        true,
      );
    } finally {
      await broken.close();
    }
  });
});
