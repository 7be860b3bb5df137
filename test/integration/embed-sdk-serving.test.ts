/**
 * What the embed host serves for the SDK, over HTTP: the SDK itself (importable from any
 * origin, cached for a year, within its size budget), the module bridge every page loads
 * from our own origin, the frame check, and the shortened idle timeout of local runs.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_SDK_BUDGET_GZIP_KB } from '../../bench/bundle-budget';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const COOKIE = '__Host-embed_session';
const PARTNER_ORIGIN = 'https://app.partner.example';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let provisioned: ProvisionedProfile;
beforeAll(async () => {
  stack = await startTestStack({ extraEnvironment: { EMBED_SESSION_IDLE_S: '60' } });
  partner = await stack.createPartner();
  await stack.deps.partners.setAllowedOrigins(partner.partnerId, [PARTNER_ORIGIN, 'https://*.partner.test']);
  provisioned = await provisionProfile(stack.deps, partner.partnerId);
});
afterAll(() => stack.close());

async function openSession(): Promise<string> {
  const handshake = await stack.post(
    '/v1/partner/handshake',
    { profile_id: provisioned.profile.id },
    { 'X-API-Key': partner.apiKey },
  );
  const redeemed = await fetch(handshake.body.iframe_embed_url, { redirect: 'manual' });
  return /^__Host-embed_session=([0-9a-f]{64})/.exec(redeemed.headers.getSetCookie()[0] ?? '')?.[1] as string;
}
const modulePage = (cookie: string) =>
  fetch(`${stack.url}/embedded/${partner.partnerId}`, { headers: { Cookie: `${COOKIE}=${cookie}` } });

describe('GET /sdk/v1/embed.js', () => {
  it('is an ES module any origin may import, cached for a year, within 10 KB gzipped', async () => {
    const res = await fetch(`${stack.url}/sdk/v1/embed.js`, { headers: { Origin: PARTNER_ORIGIN } });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(body).toMatch(/export\s*\{[^}]*as mount/);
    expect(gzipSync(body).length).toBeLessThanOrEqual(EMBED_SDK_BUDGET_GZIP_KB * 1024);
  });
});

describe('the module pages and the bridge', () => {
  it('load the bridge from our own origin and tell it the allowed frame origins; no inline script', async () => {
    const res = await modulePage(await openSession());
    const page = await res.text();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page).toContain('<script type="module" src="/embedded/assets/bridge-v1.js"></script>');
    expect(page).toContain(`data-embed-origins="${PARTNER_ORIGIN} https://*.partner.test"`);
    expect(page).toContain('data-embed-page="catalog"');
    expect(page).toContain('<script type="module" src="/embedded/assets/module-v1.js"></script>');
    expect(page.match(/<script/g)).toHaveLength(2);

    const bridge = await fetch(`${stack.url}/embedded/assets/bridge-v1.js`);
    expect(bridge.status).toBe(200);
    expect(bridge.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bridge.headers.get('access-control-allow-origin')).toBeNull();

    const pages = await fetch(`${stack.url}/embedded/assets/module-v1.js`);
    expect(pages.status).toBe(200);
    expect(pages.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(pages.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(await pages.text()).toContain('data-apply-on-change');
  });

  it('marks the 401 page of an ended session apart from an unusable link', async () => {
    const handshake = await stack.post(
      '/v1/partner/handshake',
      { profile_id: provisioned.profile.id },
      { 'X-API-Key': partner.apiKey },
    );
    await fetch(handshake.body.iframe_embed_url, { redirect: 'manual' });
    const reused = await fetch(handshake.body.iframe_embed_url, { redirect: 'manual' });
    expect(reused.status).toBe(401);
    expect(await reused.text()).toContain('data-embed-ended="link-unusable"');

    const ended = await fetch(`${stack.url}/embedded/${partner.partnerId}`, {
      headers: { Cookie: `${COOKIE}=${'0'.repeat(64)}` },
    });
    expect(ended.status).toBe(401);
    expect(await ended.text()).toContain('data-embed-ended="session-ended"');
  });
});

describe('GET /embedded/{partnerId}/frame-check', () => {
  const check = async (origin: string | undefined, partnerId: string = partner.partnerId) => {
    const res = await fetch(`${stack.url}/embedded/${partnerId}/frame-check`, {
      headers: origin ? { Origin: origin } : {},
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    return ((await res.json()) as { allowed: boolean }).allowed;
  };

  it('says whether the calling origin may frame the module, as the CSP decides', async () => {
    expect(await check(PARTNER_ORIGIN)).toBe(true);
    expect(await check('https://eu.partner.test')).toBe(true);
    expect(await check('https://partner.test')).toBe(false);
    expect(await check('https://evil.example')).toBe(false);
    expect(await check('http://app.partner.example')).toBe(false);
    expect(await check(undefined)).toBe(false);
    expect(await check(PARTNER_ORIGIN, '00000000-0000-4000-8000-000000000000')).toBe(false);
  });
});

describe('EMBED_SESSION_IDLE_S', () => {
  it('ends an embedded session after that many seconds without a request', async () => {
    const cookie = await openSession();
    stack.clock.advance(59_000);
    expect((await modulePage(cookie)).status).toBe(200);
    stack.clock.advance(61_000);
    expect((await modulePage(cookie)).status).toBe(401);
  });
});
