import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { tableName } from '../../functions/resources/resource-definitions';
import { aSetupBody, type ProvisionedProfile, provisionProfile } from '../support/provisioned-profile';
import { holdUntilAll } from '../support/arrival-gate';
import { startTestStack, type TestStack } from '../support/test-stack';

const EXPIRED_MESSAGE = 'This link has expired or was already used. Please reopen the module from your application.';
const COOKIE = '__Host-embed_session';
const MINUTE = 60_000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let provisioned: ProvisionedProfile;
beforeAll(async () => {
  stack = await startTestStack();
  partner = await stack.createPartner();
  provisioned = await provisionProfile(stack.deps, partner.partnerId);
});
afterAll(() => stack.close());

/** A real handshake over HTTP, as the partner's backend makes it. */
async function handshake(profileId = provisioned.profile.id, apiKey = partner.apiKey) {
  const res = await stack.post('/v1/partner/handshake', { profile_id: profileId }, { 'X-API-Key': apiKey });
  expect(res.status).toBe(200);
  return res.body as { session_key: string; iframe_embed_url: string };
}

/** The browser's request, without following redirects. */
async function browse(url: string, init: { cookie?: string; method?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(url.startsWith('http') ? url : `${stack.url}${url}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { ...(init.cookie ? { Cookie: `${COOKIE}=${init.cookie}` } : {}), ...init.headers },
  });
  return { status: res.status, headers: res.headers, setCookies: res.headers.getSetCookie(), text: await res.text() };
}

const cookieValue = (setCookies: string[]): string | undefined =>
  setCookies.map((c) => new RegExp(`^${COOKIE}=([^;]*)`).exec(c)?.[1]).find((v) => v !== undefined);

/** Handshake, then redeem: the session cookie the browser now holds. */
async function openSession(profileId = provisioned.profile.id): Promise<string> {
  const { iframe_embed_url } = await handshake(profileId);
  const redeemed = await browse(iframe_embed_url);
  expect(redeemed.status).toBe(303);
  return cookieValue(redeemed.setCookies) as string;
}

const modulePath = (partnerId: string = partner.partnerId) => `/embedded/${partnerId}`;

describe('redeeming the iframe URL', () => {
  it('answers 303 to the same path without the key and sets the session cookie', async () => {
    const { iframe_embed_url } = await handshake();
    const res = await browse(iframe_embed_url);

    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(modulePath());
    expect(res.headers.get('location')).not.toContain('session_key');
    expect(res.setCookies).toHaveLength(1);
    expect(res.setCookies[0]).toMatch(
      new RegExp(`^${COOKIE}=[0-9a-f]{64}; HttpOnly; Secure; SameSite=None; Partitioned; Path=/$`),
    );
  });

  it('takes the partner id in the path in any case: redeemed, and redirected to the lower-case path', async () => {
    const { iframe_embed_url } = await handshake();
    const url = new URL(iframe_embed_url);
    const res = await browse(`${stack.url}${modulePath(partner.partnerId.toUpperCase())}${url.search}`);

    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(modulePath());
    const page = await browse(modulePath(partner.partnerId.toUpperCase()), {
      cookie: cookieValue(res.setCookies) as string,
    });
    expect(page.status).toBe(200);
  });

  it('stores only the hash of the session cookie, and marks the token used', async () => {
    const { session_key, iframe_embed_url } = await handshake();
    const res = await browse(iframe_embed_url);
    const cookie = cookieValue(res.setCookies) as string;
    const table = tableName(stack.config.RESOURCE_PREFIX, 'sessions');

    const session = await stack.deps.aws.db.send(
      new GetCommand({ TableName: table, Key: { pk: `EMBED#${sha256(cookie)}`, sk: 'EMBED' } }),
    );
    expect(session.Item).toMatchObject({
      state: 'active',
      partnerId: partner.partnerId,
      profileId: provisioned.profile.id,
    });
    expect(JSON.stringify(session.Item)).not.toContain(cookie);
    const token = await stack.deps.aws.db.send(
      new GetCommand({ TableName: table, Key: { pk: `TOKEN#${sha256(session_key)}`, sk: 'TOKEN' } }),
    );
    expect(token.Item).toMatchObject({ state: 'used', usedAt: stack.clock.now().toISOString() });
  });

  it('answers the 401 page to a second use of the same URL', async () => {
    const { iframe_embed_url } = await handshake();
    expect((await browse(iframe_embed_url)).status).toBe(303);
    const second = await browse(iframe_embed_url);
    expect(second.status).toBe(401);
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(second.text).toContain(EXPIRED_MESSAGE);
    expect(second.setCookies).toEqual([]);
  });

  it('is redeemable at 4:59 and refused at exactly 5:00 after the handshake', async () => {
    const early = await handshake();
    const late = await handshake();
    stack.clock.advance(4 * MINUTE + 59_000);
    expect((await browse(early.iframe_embed_url)).status).toBe(303);
    stack.clock.advance(1_000);
    const refused = await browse(late.iframe_embed_url);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain(EXPIRED_MESSAGE);
  });

  it('lets exactly one of 50 concurrent redemptions of one token through', async () => {
    const { session_key, iframe_embed_url } = await handshake();
    // Every redemption's write is held until all 50 are there: whatever a redemption reads
    // first, it reads before any of them wrote (a read-then-write would let all 50 through).
    const token = `TOKEN#${sha256(session_key)}`;
    const gate = holdUntilAll(
      stack.deps.aws.db,
      50,
      ({ name, input }) => /^Update(Item)?Command$/.test(name) && JSON.stringify(input.Key).includes(token),
    );
    const results = await Promise.all(Array.from({ length: 50 }, () => browse(iframe_embed_url))).finally(() =>
      gate.remove(),
    );
    expect(gate.arrived()).toBe(50);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(49);
    expect(results.flatMap((r) => r.setCookies)).toHaveLength(1);
  });

  it("refuses a token at another partner's path, which leaves it usable at its own", async () => {
    const other = await stack.createPartner();
    const { session_key, iframe_embed_url } = await handshake();
    const foreign = await browse(`${modulePath(other.partnerId)}?session_key=${session_key}`);
    expect(foreign.status).toBe(401);
    expect(foreign.text).toContain(EXPIRED_MESSAGE);
    expect((await browse(iframe_embed_url)).status).toBe(303);
  });

  it.each([
    ['an unknown key', 'a'.repeat(64)],
    ['a malformed key', 'not-a-key'],
    ['an empty key', ''],
  ])('answers the 401 page to %s', async (_, key) => {
    const res = await browse(`${modulePath()}?session_key=${key}`);
    expect(res.status).toBe(401);
    expect(res.text).toContain(EXPIRED_MESSAGE);
  });

  it('refuses the token when the profile was unlinked after the handshake', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const { iframe_embed_url } = await handshake(profile.id);
    await stack.deps.organizations.unlinkProfile(profile.id, stack.clock.now());
    expect((await browse(iframe_embed_url)).status).toBe(401);
  });

  it('never logs the session key or the cookie', async () => {
    const { session_key, iframe_embed_url } = await handshake();
    const res = await browse(iframe_embed_url);
    const cookie = cookieValue(res.setCookies) as string;
    await browse(modulePath(), { cookie });
    const log = stack.rawLogLines.join('\n');
    expect(log).not.toContain(session_key);
    expect(log).not.toContain(cookie);
    expect(
      stack.logs.some((l) => l.endpoint === 'embed' && l.partnerId === partner.partnerId && l.status === 303),
    ).toBe(true);
  });
});

describe('the embedded module behind the cookie', () => {
  it('shows the signed-in user and the organization, and the shipping locations at checkout with the default chosen', async () => {
    const { organization, profile } = await provisionProfile(
      stack.deps,
      partner.partnerId,
      aSetupBody({
        organizationName: 'Bright Smile Dental',
        user: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@bright.test' },
        shippingLocations: [
          {
            internalShippingLocationId: 'loc-1',
            name: 'Downtown clinic',
            nickname: 'HQ',
            address: {
              line1: '500 Congress Ave',
              line2: 'Suite 200',
              city: 'Austin',
              province: 'tx',
              postalCode: '78701',
            },
            isDefault: true,
          },
          {
            internalShippingLocationId: 'loc-2',
            name: 'Warehouse',
            address: { line1: '9 Dock Rd', city: 'Dallas', province: 'Texas', postalCode: '75201-1234' },
          },
        ],
      }),
    );
    const cookie = await openSession(profile.id);
    const res = await browse(modulePath(), { cookie });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Grace Hopper');
    expect(res.text).toContain('grace@bright.test');
    expect(res.text).toContain(organization.name);

    await stack.deps.cartService.add(profile.id, 'GLV-NIT-M-100');
    const checkout = await browse(`${modulePath()}/checkout`, { cookie });
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain('Downtown clinic');
    expect(checkout.text).toContain('500 Congress Ave<br/>Suite 200<br/>Austin, Texas 78701');
    expect(checkout.text).toContain('9 Dock Rd<br/>Dallas, Texas 75201-1234');
    expect(checkout.text.match(/class="badge">Default</g)).toHaveLength(1);
    expect(checkout.text).toMatch(
      /value="[^"]+" checked [^>]*\/>\s*<span><b>Downtown clinic<\/b> \(HQ\) <span class="badge">Default/,
    );
  });

  it('escapes every value it renders', async () => {
    const { profile } = await provisionProfile(
      stack.deps,
      partner.partnerId,
      aSetupBody({
        organizationName: '<script>alert(1)</script> & Co',
        user: { firstName: '"><img src=x onerror=alert(1)>', lastName: "O'Brien", email: 'o.brien@acme.test' },
      }),
    );
    const res = await browse(modulePath(), { cookie: await openSession(profile.id) });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;script>alert(1)&lt;/script> &amp; Co');
    expect(res.text).toContain("O'Brien");
  });

  it('answers the 401 page and clears the cookie without a cookie or with an unknown one', async () => {
    for (const cookie of [undefined, 'f'.repeat(64), 'garbage']) {
      const res = await browse(modulePath(), { cookie });
      expect(res.status).toBe(401);
      expect(res.text).toContain(EXPIRED_MESSAGE);
      expect(res.setCookies).toEqual([`${COOKIE}=; HttpOnly; Secure; SameSite=None; Partitioned; Path=/; Max-Age=0`]);
    }
  });

  it("answers the 401 page for a cookie at another partner's path", async () => {
    const other = await stack.createPartner();
    const cookie = await openSession();
    expect((await browse(modulePath(other.partnerId), { cookie })).status).toBe(401);
  });

  it('ends the session after 30 idle minutes, while activity keeps it alive', async () => {
    const cookie = await openSession();
    stack.clock.advance(29 * MINUTE);
    expect((await browse(modulePath(), { cookie })).status).toBe(200);
    stack.clock.advance(29 * MINUTE);
    expect((await browse(modulePath(), { cookie })).status).toBe(200);
    stack.clock.advance(30 * MINUTE);
    const idle = await browse(modulePath(), { cookie });
    expect(idle.status).toBe(401);
    expect(idle.text).toContain(EXPIRED_MESSAGE);
  });

  it('ends the session 12 hours after it opened, however active', async () => {
    const cookie = await openSession();
    for (let elapsed = 0; elapsed < 12 * 60; elapsed += 25) {
      expect((await browse(modulePath(), { cookie })).status).toBe(200);
      stack.clock.advance(25 * MINUTE);
    }
    // 12 h 05 min after opening, the last request 25 minutes ago.
    expect((await browse(modulePath(), { cookie })).status).toBe(401);
  });

  it('ends the session when the operator unlinks the profile', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const cookie = await openSession(profile.id);
    await stack.deps.organizations.unlinkProfile(profile.id, stack.clock.now());
    expect((await browse(modulePath(), { cookie })).status).toBe(401);
  });
});

describe('two session cookies of one name', () => {
  it('treats them as no session, whichever is live: the 401 page, nothing signed in', async () => {
    const live = await openSession();
    const planted = await openSession();
    for (const cookies of [
      [live, planted],
      [planted, live],
      [live, live],
      [live, 'x'.repeat(43)],
    ]) {
      const res = await browse(modulePath(), {
        headers: { Cookie: cookies.map((value) => `${COOKIE}=${value}`).join('; ') },
      });
      expect(res.status).toBe(401);
      expect(res.text).not.toContain(provisioned.profile.id);
    }
    expect((await browse(modulePath(), { cookie: live })).status).toBe(200);
  });
});

describe('signing out', () => {
  const logout = (cookie: string | undefined, origin = stack.url) =>
    browse(`${modulePath()}/logout`, { method: 'POST', cookie, headers: { Origin: origin } });

  it('ends the session, clears the cookie and shows the signed-out page; the old cookie then gets the 401 page', async () => {
    const cookie = await openSession();
    const res = await logout(cookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain('You have signed out');
    expect(res.setCookies).toEqual([`${COOKIE}=; HttpOnly; Secure; SameSite=None; Partitioned; Path=/; Max-Age=0`]);

    const stored = await stack.deps.aws.db.send(
      new GetCommand({
        TableName: tableName(stack.config.RESOURCE_PREFIX, 'sessions'),
        Key: { pk: `EMBED#${sha256(cookie)}`, sk: 'EMBED' },
      }),
    );
    expect(stored.Item).toMatchObject({
      state: 'ended',
      endReason: 'logout',
      endedAt: stack.clock.now().toISOString(),
    });
    expect((await browse(modulePath(), { cookie })).status).toBe(401);
  });

  it('refuses a sign-out posted from another site with the 403 "Request refused" page and keeps the session', async () => {
    const cookie = await openSession();
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: stack.url, 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of crossSite) {
      const res = await browse(`${modulePath()}/logout`, { method: 'POST', cookie, headers });
      expect(res.status).toBe(403);
      expect(res.text).toContain('<h1>Request refused</h1>');
      expect(res.text).not.toContain('link-unusable');
      expect(res.setCookies).toEqual([]);
    }
    expect((await browse(modulePath(), { cookie })).status).toBe(200);
  });

  it("accepts the module's own form post, whose Origin no-referrer turns into null", async () => {
    const cookie = await openSession();
    const res = await browse(`${modulePath()}/logout`, {
      method: 'POST',
      cookie,
      headers: { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(res.status).toBe(200);
    expect((await browse(modulePath(), { cookie })).status).toBe(401);
  });
});

describe('security headers on every embed response', () => {
  const expectHardened = (headers: Headers, frameAncestors: string) => {
    expect(headers.get('content-security-policy')).toContain(`frame-ancestors ${frameAncestors}`);
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('cache-control')).toBe('no-store');
  };

  it("uses the partner's allowed origins as frame-ancestors on the redirect, the page and the 401 page", async () => {
    const framed = await stack.createPartner();
    await stack.deps.partners.setAllowedOrigins(framed.partnerId, [
      'https://app.partner.test',
      'https://*.partner.test',
    ]);
    const { profile } = await provisionProfile(stack.deps, framed.partnerId);
    const key = (await handshake(profile.id, framed.apiKey)).iframe_embed_url;

    const redirect = await browse(key);
    const page = await browse(modulePath(framed.partnerId), { cookie: cookieValue(redirect.setCookies) as string });
    const refused = await browse(key);
    expect([redirect.status, page.status, refused.status]).toEqual([303, 200, 401]);
    for (const res of [redirect, page, refused]) {
      expectHardened(res.headers, 'https://app.partner.test https://*.partner.test');
    }
  });

  it('falls back to the environment default for a partner without allowed origins', async () => {
    const res = await browse(modulePath());
    expectHardened(res.headers, stack.config.DEFAULT_FRAME_ANCESTORS.join(' '));
    expect(stack.config.DEFAULT_FRAME_ANCESTORS.length).toBeGreaterThan(0);
  });

  it("uses 'none' for an unknown partner", async () => {
    const res = await browse('/embedded/00000000-0000-4000-8000-000000000000?session_key=abc');
    expect(res.status).toBe(401);
    expectHardened(res.headers, "'none'");
  });

  it('drops allowed origins that could rewrite the policy', async () => {
    const odd = await stack.createPartner();
    await stack.deps.partners.setAllowedOrigins(odd.partnerId, [
      "https://ok.test; script-src 'unsafe-eval'",
      'https://fine.test',
    ]);
    const res = await browse(modulePath(odd.partnerId));
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/fine\.test$/);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-eval');
  });
});
