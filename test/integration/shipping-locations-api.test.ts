import { ConcurrentModification } from '../../functions/domain/errors';
/**
 * POST and PATCH /v1/organizations/{internalOrgId}/shipping-locations[/{id}] on the local
 * stack: the partner adds and changes locations after setup; the organization keeps at
 * most one default; an inactive location leaves checkout and sandbox orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { MAX_LOCATIONS_PER_ORGANIZATION } from '../../functions/domain/organizations/organization-setup';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aLocation, anAddress, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
beforeAll(async () => {
  stack = await startTestStack();
  partner = await stack.createPartner();
});
afterAll(() => stack.close());

const bearer = (apiKey = partner.apiKey) => ({ Authorization: `Bearer ${apiKey}` });

/** An organization set up with `loc-1` as its default. */
async function anOrganization() {
  const body = aSetupRequest()
    .withLocations(aLocation('loc-1', { isDefault: true }))
    .build();
  expect((await stack.post('/v1/organizations/setup', body, bearer())).status).toBe(200);
  const base = `/v1/organizations/${body.internalOrgId}/shipping-locations`;
  return { body, base, at: (id: string) => `${base}/${id}` };
}

const locationsOf = async (internalOrgId: string) =>
  (await stack.deps.organizations.getOrganization(partner.partnerId, internalOrgId))!.locations;
const defaults = async (internalOrgId: string) =>
  (await locationsOf(internalOrgId)).filter((l) => l.isDefault).map((l) => l.internalShippingLocationId);

describe('POST a shipping location', () => {
  it('answers 201 with the location, normalized as setup does, and stores its input-only fields', async () => {
    const { body, base } = await anOrganization();
    const res = await stack.post(
      base,
      aLocation('loc-2', {
        name: ' Warehouse ',
        address: anAddress({ province: 'ca', postalCode: '90001' }),
        deliveryInstructions: 'Dock 4',
      }),
      bearer(),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.shippingLocation).toMatchObject({
      name: 'Warehouse',
      internalShippingLocationId: 'loc-2',
      address: { province: 'California', country: 'United States' },
      isDefault: false,
      isActive: true,
    });
    expect(
      (await locationsOf(body.internalOrgId)).find((l) => l.internalShippingLocationId === 'loc-2')
        ?.deliveryInstructions,
    ).toBe('Dock 4');
  });

  it('makes a new default location the only default', async () => {
    const { body, base } = await anOrganization();
    expect(
      (await stack.post(base, aLocation('loc-2', { isDefault: true }), bearer())).body.data.shippingLocation.isDefault,
    ).toBe(true);
    expect(await defaults(body.internalOrgId)).toEqual(['loc-2']);
  });

  it('answers 409 SHIPPING_LOCATION_ALREADY_EXISTS for a known id, and 400 with details for bad fields', async () => {
    const { base } = await anOrganization();
    const taken = await stack.post(base, aLocation('loc-1'), bearer());
    expect([taken.status, taken.body.code]).toEqual([409, 'SHIPPING_LOCATION_ALREADY_EXISTS']);
    const bad = await stack.post(
      base,
      { internalShippingLocationId: 'loc-3', address: anAddress({ postalCode: 'ABC' }) },
      bearer(),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { code: string; path: string[] }) => `${d.path.join('.')}:${d.code}`)).toEqual([
      'name:REQUIRED',
      'address.postalCode:INVALID_POSTAL_CODE',
    ]);
  });

  it(`refuses a location beyond ${MAX_LOCATIONS_PER_ORGANIZATION} per organization`, async () => {
    const locations = Array.from({ length: 50 }, (_, i) => aLocation(`bulk-${i}`));
    const body = aSetupRequest()
      .withLocations(...locations)
      .build();
    expect((await stack.post('/v1/organizations/setup', body, bearer())).status).toBe(200);
    for (let batch = 1; batch < 4; batch += 1) {
      const more = aSetupRequest()
        .forOrg(body.internalOrgId)
        .withLocations(...Array.from({ length: 50 }, (_, i) => aLocation(`bulk-${batch}-${i}`)))
        .build();
      expect((await stack.post('/v1/organizations/setup', more, bearer())).status).toBe(200);
    }
    const res = await stack.post(
      `/v1/organizations/${body.internalOrgId}/shipping-locations`,
      aLocation('one-too-many'),
      bearer(),
    );
    expect([res.status, res.body.details[0].code]).toEqual([400, 'TOO_MANY_ITEMS']);
  });

  it("answers 404 for an unknown organization and for another partner's", async () => {
    const { base } = await anOrganization();
    const other = await stack.createPartner();
    expect((await stack.post(base, aLocation('loc-x'), bearer(other.apiKey))).body.code).toBe('ORGANIZATION_NOT_FOUND');
    expect(
      (await stack.post('/v1/organizations/nowhere/shipping-locations', aLocation('loc-x'), bearer())).status,
    ).toBe(404);
  });
});

describe('PATCH a shipping location', () => {
  it('changes only the fields given, and removes optional ones with null', async () => {
    const { body, base, at } = await anOrganization();
    await stack.post(base, aLocation('loc-2', { nickname: 'North', contact: { name: 'Dock' } }), bearer());
    const res = await stack.patch(
      at('loc-2'),
      { name: 'Depot', nickname: null, contact: null, address: anAddress({ province: 'ny', postalCode: '10001' }) },
      bearer(),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.shippingLocation).toMatchObject({
      name: 'Depot',
      address: { province: 'New York' },
      isDefault: false,
      isActive: true,
    });
    expect(res.body.data.shippingLocation.nickname).toBeUndefined();
    expect(
      (await locationsOf(body.internalOrgId)).find((l) => l.internalShippingLocationId === 'loc-2')?.contact,
    ).toBeUndefined();
  });

  it('moves the default in one step, and can leave the organization without one', async () => {
    const { body, base, at } = await anOrganization();
    await stack.post(base, aLocation('loc-2'), bearer());
    expect((await stack.patch(at('loc-2'), { isDefault: true }, bearer())).status).toBe(200);
    expect(await defaults(body.internalOrgId)).toEqual(['loc-2']);
    expect((await stack.patch(at('loc-2'), { isDefault: false }, bearer())).status).toBe(200);
    expect(await defaults(body.internalOrgId)).toEqual([]);
    expect((await stack.patch(at('loc-1'), { isDefault: true }, bearer())).status).toBe(200);
    expect(await defaults(body.internalOrgId)).toEqual(['loc-1']);
  });

  it('keeps the default active: deactivating it, or making an inactive location the default, is 409 and changes nothing', async () => {
    const { body, base, at } = await anOrganization();
    await stack.post(base, aLocation('loc-2'), bearer());
    const deactivate = await stack.patch(at('loc-1'), { isActive: false, name: 'Closed' }, bearer());
    expect([deactivate.status, deactivate.body.code]).toEqual([409, 'DEFAULT_LOCATION_INACTIVE']);
    expect(await locationsOf(body.internalOrgId)).toContainEqual(
      expect.objectContaining({
        internalShippingLocationId: 'loc-1',
        isDefault: true,
        isActive: true,
      }),
    );
    expect((await locationsOf(body.internalOrgId)).map((l) => l.name)).not.toContain('Closed');
    expect((await stack.patch(at('loc-2'), { isActive: false }, bearer())).status).toBe(200);
    const promote = await stack.patch(at('loc-2'), { isDefault: true }, bearer());
    expect([promote.status, promote.body.code]).toEqual([409, 'DEFAULT_LOCATION_INACTIVE']);
    expect(await defaults(body.internalOrgId)).toEqual(['loc-1']);
    // Both at once settle it: the organization is left without a default, or gets an active one.
    expect((await stack.patch(at('loc-2'), { isDefault: true, isActive: true }, bearer())).status).toBe(200);
    expect((await stack.patch(at('loc-1'), { isActive: false, isDefault: false }, bearer())).status).toBe(200);
    expect(await defaults(body.internalOrgId)).toEqual(['loc-2']);
  });

  it('refuses in the transaction a deactivation read before the location became the default', async () => {
    const { body, base, at } = await anOrganization();
    await stack.post(base, aLocation('loc-2'), bearer());
    const aggregate = (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!;
    const stale = aggregate.locations.find((l) => l.internalShippingLocationId === 'loc-2')!;
    expect((await stack.patch(at('loc-2'), { isDefault: true }, bearer())).status).toBe(200);
    await expect(
      stack.deps.organizations.updateLocation(
        aggregate.organization,
        stale,
        { set: { isActive: false }, remove: [] },
        { kind: 'none' },
      ),
    ).rejects.toBeInstanceOf(ConcurrentModification);
    expect(await locationsOf(body.internalOrgId)).toContainEqual(
      expect.objectContaining({ internalShippingLocationId: 'loc-2', isDefault: true, isActive: true }),
    );
  });

  it('keeps exactly one default when two locations are made the default at once', async () => {
    const { body, base, at } = await anOrganization();
    await stack.post(base, aLocation('loc-2'), bearer());
    await stack.post(base, aLocation('loc-3'), bearer());
    const results = await Promise.all([
      stack.patch(at('loc-2'), { isDefault: true }, bearer()),
      stack.patch(at('loc-3'), { isDefault: true }, bearer()),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await defaults(body.internalOrgId)).toHaveLength(1);
  });

  it('answers 404 SHIPPING_LOCATION_NOT_FOUND, 404 for another partner, and 400 NO_CHANGES', async () => {
    const { at } = await anOrganization();
    const unknown = await stack.patch(at('loc-9'), { isActive: false }, bearer());
    expect([unknown.status, unknown.body.code]).toEqual([404, 'SHIPPING_LOCATION_NOT_FOUND']);
    const other = await stack.createPartner();
    expect((await stack.patch(at('loc-1'), { isActive: false }, bearer(other.apiKey))).body.code).toBe(
      'ORGANIZATION_NOT_FOUND',
    );
    const empty = await stack.patch(at('loc-1'), { nickname: ' ' }, bearer());
    expect([empty.status, empty.body.details[0].code]).toEqual([400, 'NO_CHANGES']);
  });

  it('takes an inactive location out of checkout and sandbox orders; orders placed before keep their address', async () => {
    const { body, base, at } = await anOrganization();
    await stack.post(base, aLocation('loc-2', { name: 'Annex Depot' }), bearer());
    const order = (location: string) =>
      stack.post(
        '/v1/sandbox/orders',
        {
          internal_user_id: body.internalUserId,
          internal_org_id: body.internalOrgId,
          internal_shipping_location_id: location,
          items: [{ product_id: PRODUCT_ID, quantity: 1 }],
        },
        bearer(),
      );
    const placed = await order('loc-2');
    expect(placed.status, placed.text).toBe(201);

    expect(
      (await stack.patch(at('loc-2'), { isActive: false, address: anAddress({ line1: '2 Moved St' }) }, bearer())).body
        .data.shippingLocation.isActive,
    ).toBe(false);
    const refused = await order('loc-2');
    expect([refused.status, refused.body.code]).toEqual([400, 'SHIPPING_LOCATION_UNAVAILABLE']);
    const kept = await stack.get(`/v1/orders/${placed.body.order.id}`, bearer());
    expect(kept.body.shipping_address.line1).toBe('100 Congress Ave');

    const profile = (await stack.deps.organizations.getProfileInOrganization(
      partner.partnerId,
      body.internalOrgId,
      body.internalUserId,
    ))!;
    await stack.deps.cartService.add(profile.id, PRODUCT_ID);
    const link = (
      await stack.post('/v1/partner/handshake', { profile_id: profile.id }, { 'X-API-Key': partner.apiKey })
    ).body.iframe_embed_url as string;
    const redeemed = await fetch(link, { redirect: 'manual' });
    const cookie = redeemed.headers.getSetCookie()[0]!.split(';')[0]!;
    const checkout = await fetch(`${stack.url}/embedded/${partner.partnerId}/checkout`, {
      headers: { Cookie: cookie },
    });
    const page = await checkout.text();
    expect(checkout.status).toBe(200);
    expect(page).toContain('Location loc-1');
    expect(page).not.toContain('Annex Depot');
  });
});
