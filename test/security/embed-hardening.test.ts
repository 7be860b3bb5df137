/**
 * The embed host's framing and URL hygiene, on every kind of response it gives.
 * embed-host.test.ts checks the headers on the redirect, the module page and the 401
 * page, and that the 303 drops the key; this adds every other response (sign-out pages,
 * refused sign-outs, ended sessions, an injected 500, odd paths and queries) and the 303
 * for URLs carrying more than the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { FaultPlan, injectAwsFaults } from '../support/fault-plan';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const COOKIE = '__Host-embed_session';
const ORIGINS = 'https://app.partner.test https://admin.partner.test:8443';

const plan = new FaultPlan();
let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let profileId: string;
beforeAll(async () => {
  stack = await startTestStack();
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix: stack.config.RESOURCE_PREFIX });
  partner = await stack.createPartner();
  await stack.deps.partners.setAllowedOrigins(partner.partnerId, ORIGINS.split(' '));
  ({
    profile: { id: profileId },
  } = await provisionProfile(stack.deps, partner.partnerId));
});
afterAll(() => stack.close());

async function freshKey(): Promise<string> {
  const res = await stack.post('/v1/partner/handshake', { profile_id: profileId }, { 'X-API-Key': partner.apiKey });
  expect(res.status).toBe(200);
  return res.body.session_key;
}

async function browse(path: string, init: { method?: string; cookie?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${stack.url}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { ...(init.cookie ? { Cookie: `${COOKIE}=${init.cookie}` } : {}), ...init.headers },
  });
  const text = await res.text();
  const cookie = /__Host-embed_session=([0-9a-f]{64})/.exec(res.headers.getSetCookie().join('\n'))?.[1];
  const headerLines: string[] = [];
  res.headers.forEach((value, name) => headerLines.push(`${name}: ${value}`));
  return { status: res.status, headers: res.headers, text, cookie, all: `${headerLines.join('\n')}\n${text}` };
}

function expectHardened(res: { headers: Headers }, frameAncestors: string, label: string) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, label).toMatch(
    new RegExp(`(^|; )frame-ancestors ${frameAncestors.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  );
  expect(csp, label).toContain("default-src 'none'");
  expect(res.headers.get('referrer-policy'), label).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('cache-control'), label).toBe('no-store');
}

const base = () => `/embedded/${partner.partnerId}`;

describe('frame-ancestors and the other security headers on every embed response', () => {
  it("carries the partner's origins on every page, redirect, refusal, sign-out and failure", async () => {
    const cases: [string, () => Promise<Awaited<ReturnType<typeof browse>>>, number][] = [];
    const redeemed = await browse(`${base()}?session_key=${await freshKey()}`);
    const cookie = redeemed.cookie as string;
    cases.push(
      ['the module page', () => browse(base(), { cookie }), 200],
      ['no cookie', () => browse(base()), 401],
      ['a garbage cookie', () => browse(base(), { cookie: 'x'.repeat(64) }), 401],
      ['an unknown key', async () => browse(`${base()}?session_key=${'0'.repeat(64)}`), 401],
      ['an empty key', () => browse(`${base()}?session_key=`), 401],
      [
        'a refused cross-site sign-out',
        () => browse(`${base()}/logout`, { method: 'POST', cookie, headers: { 'Sec-Fetch-Site': 'cross-site' } }),
        403,
      ],
      [
        'a sign-out from another origin (no Sec-Fetch-Site)',
        () => browse(`${base()}/logout`, { method: 'POST', cookie, headers: { Origin: 'https://evil.test' } }),
        403,
      ],
      [
        'a sign-out without a cookie',
        () => browse(`${base()}/logout`, { method: 'POST', headers: { 'Sec-Fetch-Site': 'same-origin' } }),
        200,
      ],
      [
        'the sign-out',
        () => browse(`${base()}/logout`, { method: 'POST', cookie, headers: { 'Sec-Fetch-Site': 'same-origin' } }),
        200,
      ],
      ['the ended session', () => browse(base(), { cookie }), 401],
    );
    expectHardened(redeemed, ORIGINS, 'the redirect');
    for (const [label, request, status] of cases) {
      const res = await request();
      expect(res.status, label).toBe(status);
      expectHardened(res, ORIGINS, label);
    }

    // A failure inside the service (the partner read works, the token write fails): a 500 page, hardened too.
    const key = await freshKey();
    plan.reset();
    plan.when((call) => call.operation === 'UpdateItem' && call.target === 'sessions', 'fail');
    const failed = await browse(`${base()}?session_key=${key}`);
    plan.disarm();
    expect(failed.status).toBe(500);
    expectHardened(failed, ORIGINS, 'the 500 page');
    expect(failed.all).not.toContain(key);
  });

  it("uses 'none' wherever the partner is unknown or the path names no partner", async () => {
    for (const path of [
      '/embedded/00000000-0000-4000-8000-000000000000',
      '/embedded/not-a-uuid?session_key=abc',
      `/embedded/${encodeURIComponent('<script>')}`,
      `/embedded/${'a'.repeat(1000)}`,
      '/embedded/00000000-0000-4000-8000-000000000000/logout',
    ]) {
      const logout = path.endsWith('/logout');
      const res = await browse(path, logout ? { method: 'POST' } : {});
      // A sign-out without a session just shows the signed-out page.
      expect(res.status, path).toBe(logout ? 200 : 401);
      expectHardened(res, "'none'", path);
    }
  });
});

describe('the session key leaves the URL', () => {
  it.each([
    ['the plain link', (key: string) => `?session_key=${key}`],
    ['a link with tracking parameters around the key', (key: string) => `?utm_source=mail&session_key=${key}&ref=x`],
    ['a link whose key is repeated', (key: string) => `?session_key=${key}&session_key=${key}`],
    ['a link with an encoded key', (key: string) => `?session%5Fkey=${key}`],
  ])('redirects %s to the bare module path, with the key nowhere in the answer', async (_label, query) => {
    const key = await freshKey();
    const res = await browse(`${base()}${query(key)}`);
    if (res.status === 303) {
      expect(res.headers.get('location')).toBe(base());
      expect(res.cookie).toMatch(/^[0-9a-f]{64}$/);
      expect(res.all.replace(res.cookie as string, '')).not.toContain(key);
    } else {
      // Refusing an odd link is fine; leaking or half-redeeming it is not.
      expect(res.status).toBe(401);
      expect(res.all).not.toContain(key);
    }
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});
