/**
 * Times in the buyer's zone: the browser's (the embed SDK puts it on the iframe URL as
 * `tz`), else the organization's `timeZone` from setup, else the zone of the shipping
 * state; always with the zone named. The API keeps ISO 8601.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { signInToModule } from '../support/module-client';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  // 23:00 UTC on Nov 28: 5:00 PM in Chicago, 6:00 PM in New York, 3:00 PM in Los Angeles, 1:00 PM in Honolulu.
  stack.clock.set(new Date('2026-11-28T23:00:00.000Z'));
});
afterAll(() => stack.close());

const withLocation = (province: string) =>
  aSetupBody({
    shippingLocations: [
      {
        internalShippingLocationId: 'main',
        name: 'Main office',
        address: { line1: '1 Main St', city: 'Town', province, postalCode: '10001' },
        isDefault: true,
      },
    ],
  });

async function anOrder(buyer: ProvisionedProfile) {
  return stack.deps.orderService.placeOrder({
    partner: { id: partner.partnerId },
    profile: buyer.profile,
    organization: (await stack.deps.organizations.getOrganization(
      partner.partnerId,
      buyer.organization.internalOrgId,
    ))!,
    items: [{ productId: 'GLV-NIT-M-100' as ProductId, quantity: 1 }],
  });
}

async function timesShown(buyer: ProvisionedProfile, tz?: string): Promise<string[]> {
  const order = await anOrder(buyer);
  const module = await signInToModule(stack, partner, buyer, tz === undefined ? {} : { tz });
  const pages = [await module.get(`${module.base}/orders`), await module.get(`${module.base}/orders/${order.id}`)];
  return pages.flatMap((p) =>
    [...p.text.matchAll(/<time datetime="[^"]+">([^<]+)<\/time>/g)].map((m) => m[1] as string),
  );
}

describe('times in the module', () => {
  it("are in the browser's zone when the SDK passes it", async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId, withLocation('TX'));
    const times = await timesShown(buyer, 'America/Los_Angeles');
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (const time of times) expect(time).toBe('Nov 28, 2026, 3:00 PM PST');
  });

  it("are in the organization's zone from setup without a browser zone (or with one Intl does not know)", async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId, {
      ...withLocation('TX'),
      timeZone: 'Pacific/Honolulu',
    });
    for (const time of await timesShown(buyer)) expect(time).toBe('Nov 28, 2026, 1:00 PM HST');
    for (const time of await timesShown(buyer, 'Mars/Olympus')) expect(time).toBe('Nov 28, 2026, 1:00 PM HST');
  });

  it("fall back to the zone of the shipping location's state", async () => {
    for (const [province, expected] of [
      ['TX', 'Nov 28, 2026, 5:00 PM CST'],
      ['NY', 'Nov 28, 2026, 6:00 PM EST'],
      ['CA', 'Nov 28, 2026, 3:00 PM PST'],
    ] as const) {
      const buyer = await provisionProfile(stack.deps, partner.partnerId, withLocation(province));
      for (const time of await timesShown(buyer)) expect(time).toBe(expected);
    }
  });

  it('sets the zone only from a name Intl knows, and the API keeps ISO 8601', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId, withLocation('TX'));
    const shake = await stack.post(
      '/v1/partner/handshake',
      { profile_id: buyer.profile.id },
      { 'X-API-Key': partner.apiKey },
    );
    const url = new URL(shake.body.iframe_embed_url as string);
    url.searchParams.set('tz', 'Europe/Paris; Domain=evil');
    const redeemed = await fetch(url, { redirect: 'manual' });
    expect(redeemed.headers.getSetCookie().some((c) => c.startsWith('__Host-embed_tz'))).toBe(false);
    url.searchParams.set('tz', 'Europe/Paris');
    const shake2 = await stack.post(
      '/v1/partner/handshake',
      { profile_id: buyer.profile.id },
      { 'X-API-Key': partner.apiKey },
    );
    const url2 = new URL(shake2.body.iframe_embed_url as string);
    url2.searchParams.set('tz', 'europe/paris');
    const ok = await fetch(url2, { redirect: 'manual' });
    expect(ok.headers.getSetCookie().find((c) => c.startsWith('__Host-embed_tz'))).toBe(
      '__Host-embed_tz=Europe%2FParis; HttpOnly; Secure; SameSite=None; Partitioned; Path=/',
    );

    const order = await anOrder(buyer);
    const api = await stack.get(`/v1/orders/${order.id}`, { Authorization: `Bearer ${partner.apiKey}` });
    expect(api.body.created_at).toBe('2026-11-28T23:00:00.000Z');
  });
});

describe('setup timeZone', () => {
  it('is stored as given when the document lists it (aliases too), and anything else is 400 VALIDATION_ERROR', async () => {
    const auth = { Authorization: `Bearer ${partner.apiKey}` };
    const body = aSetupBody({ timeZone: 'Asia/Kolkata' });
    expect((await stack.post('/v1/organizations/setup', body, auth)).status).toBe(200);
    expect(
      (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!.organization.timeZone,
    ).toBe('Asia/Kolkata');

    for (const timeZone of ['Mars/Olympus', '', 42, 'America/Chicago\u0000', 'america/chicago', ' UTC']) {
      const res = await stack.post('/v1/organizations/setup', aSetupBody({ timeZone: timeZone as string }), auth);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.details[0].path).toEqual(['timeZone']);
    }
  });
});
