/**
 * What every response of the local server carries, whoever answers it: a Lambda route
 * (API or embed host), a local page (/health, the demo partner app) or the server's own
 * 404 for a path nothing serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../../lib/local-runtime/demo-app';
import { startTestStack, type TestStack } from '../support/test-stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: TestStack;
let partnerId: string;
beforeAll(async () => {
  const connection = () => Promise.reject(new Error('the demo pages asked for here make no handshake'));
  stack = await startTestStack({ pages: [createDemoApp({ connection, provision: async () => undefined })] });
  partnerId = (await stack.createPartner()).partnerId;
});
afterAll(() => stack.close());

const request = async (method: string, path: string) => {
  const res = await fetch(`${stack.url}${path}`, { method, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe('headers on every local response', () => {
  const notTheModule = [
    ['GET', '/health', 200],
    ['GET', '/demo', 200],
    ['GET', '/demo/users/mallory', 404],
    ['GET', '/no/such/path', 404],
    ['OPTIONS', '/v1/organizations/setup', 404],
    ['POST', '/v1/organizations/setup', 401],
    ['POST', '/v1/partner/handshake', 401],
  ] as const;

  it.each(notTheModule)('%s %s: Request-Id, nosniff and frame-ancestors none', async (method, path, status) => {
    const res = await request(method, path);
    expect(res.status).toBe(status);
    expect(res.headers.get('request-id')).toMatch(UUID);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('gives every response its own Request-Id', async () => {
    const ids = await Promise.all([request('GET', '/health'), request('GET', '/health'), request('GET', '/nope')]);
    expect(new Set(ids.map((res) => res.headers.get('request-id'))).size).toBe(3);
  });

  it("keeps the embedded module's own policy, which lets the partner's origins frame it, and adds a Request-Id", async () => {
    const res = await request('GET', `/embedded/${partnerId}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('request-id')).toMatch(UUID);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy.match(/frame-ancestors/g)).toHaveLength(1);
    expect(policy).toContain('frame-ancestors http://localhost:* http://127.0.0.1:*');
  });

  it('answers a path nothing serves with the general error body', async () => {
    const res = await request('GET', '/v1/organizations');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      error: 'Not Found',
      message: 'No route for GET /v1/organizations',
      code: 'NOT_FOUND',
      details: [],
    });
  });
});
