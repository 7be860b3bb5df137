/**
 * The spend report's partner route on DynamoDB Local (docs/orders-api.md, "Spend report"):
 * orders of two users in two categories either side of Chicago's midnight between November
 * and December, each total checked to the cent against the orders placed; a malformed month
 * and another partner's organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import type { Cents } from '../../functions/domain/money';
import type { Order } from '../../functions/domain/orders/order';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aProduct } from '../support/catalog-fixtures';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };

const product = (productId: string, category: string, priceCents: number) =>
  aProduct(productId, {
    name: productId,
    description: 'for the spend report',
    category,
    priceCents: priceCents as Cents,
    unit: 'each',
  });
const GLOVES = product('SPEND-GLOVES', 'Spend Clinical', 1999);
const BURS = product('SPEND-BURS', 'Spend Burs', 4337);

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GLOVES, BURS]);
});
afterAll(() => stack.close());

const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
const dollars = (cents: number) => cents / 100;
const sum = (orders: readonly Order[]) => orders.reduce((total, order) => total + order.totalCents, 0);
const goods = (orders: readonly Order[], item: Product) =>
  orders
    .flatMap((o) => o.items.filter((i) => i.productId === item.productId))
    .reduce((t, i) => t + i.unitPriceCents * i.quantity, 0);

describe('GET /v1/organizations/{internalOrgId}/spend', () => {
  it('totals each month of the organization’s zone by user, location and category to the cent', async () => {
    const body = aSetupBody({ timeZone: 'America/Chicago' });
    const ana = await provisionProfile(stack.deps, partner.partnerId, body);
    const sam = await provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `${body.internalUserId}-sam`,
      user: { ...body.user, email: `sam.${body.user.email}`, monthlyLimit: 1000 },
    });
    const place = async (who: ProvisionedProfile, items: { productId: ProductId; quantity: number }[]) =>
      stack.deps.orderService.placeOrder({
        partner: { id: partner.partnerId },
        profile: (await stack.deps.organizations.getProfile(who.profile.id))!,
        organization: (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!,
        items,
      });
    const start = stack.clock.now();
    let november: Order[];
    let december: Order[];
    try {
      // 05:30 UTC on December 1 is still November 30 in Chicago; 06:30 is December there.
      stack.clock.set(new Date('2036-11-30T20:00:00.000Z'));
      const a1 = await place(ana, [{ productId: GLOVES.productId, quantity: 3 }]);
      stack.clock.set(new Date('2036-12-01T05:30:00.000Z'));
      const s1 = await place(sam, [
        { productId: BURS.productId, quantity: 2 },
        { productId: GLOVES.productId, quantity: 1 },
      ]);
      november = [a1, s1];
      stack.clock.set(new Date('2036-12-01T06:30:00.000Z'));
      december = [await place(sam, [{ productId: BURS.productId, quantity: 1 }])];
    } finally {
      stack.clock.set(start);
    }
    // Read on December 15 (Chicago): December is the current month, so only it has what the monthly limit leaves.
    stack.clock.set(new Date('2036-12-15T18:00:00.000Z'));

    const report = async (month: string) => {
      const response = await stack.get(
        `/v1/organizations/${body.internalOrgId}/spend?month=${month}`,
        bearer(partner.apiKey),
      );
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    const nov = await report('2036-11');
    expect(nov).toMatchObject({ month: '2036-11', time_zone: 'America/Chicago', order_count: 2, complete: true });
    expect(nov.total).toBe(dollars(sum(november)));
    const byUser = Object.fromEntries(
      nov.users.map((u: { internal_user_id: string; total: number }) => [u.internal_user_id, u]),
    );
    expect(byUser[ana.profile.internalUserId].total).toBe(dollars(november[0]!.totalCents));
    expect(byUser[sam.profile.internalUserId]).toMatchObject({
      total: dollars(november[1]!.totalCents),
      monthly_limit: 1000,
      remaining: null,
    });
    expect(byUser[ana.profile.internalUserId]).toMatchObject({ monthly_limit: null, remaining: null });
    expect(nov.locations).toEqual([
      expect.objectContaining({
        internal_shipping_location_id: body.shippingLocations![0]!.internalShippingLocationId,
        total: dollars(sum(november)),
      }),
    ]);
    expect(nov.categories).toEqual([
      { category: 'Spend Burs', total: dollars(goods(november, BURS)) },
      { category: 'Spend Clinical', total: dollars(goods(november, GLOVES)) },
    ]);

    const dec = await report('2036-12');
    expect(dec).toMatchObject({ order_count: 1, total: dollars(sum(december)) });
    const samInDecember = dec.users.find(
      (u: { internal_user_id: string }) => u.internal_user_id === sam.profile.internalUserId,
    );
    expect(samInDecember).toMatchObject({ total: dollars(sum(december)), remaining: dollars(100_000 - sum(december)) });
    stack.clock.set(start);
    expect(dec.categories).toEqual([{ category: 'Spend Burs', total: dollars(goods(december, BURS)) }]);
  });

  it('names the organization’s zone as it was given, not the alias Intl resolves it to', async () => {
    for (const timeZone of ['Asia/Kolkata', 'Europe/Kyiv']) {
      const body = aSetupBody({ timeZone });
      await provisionProfile(stack.deps, partner.partnerId, body);
      const response = await stack.get(`/v1/organizations/${body.internalOrgId}/spend`, bearer(partner.apiKey));
      expect([response.status, response.body.time_zone]).toEqual([200, timeZone]);
    }
  });

  it('answers 400 INVALID_MONTH for a malformed month and 404 for another partner’s organization', async () => {
    const body = aSetupBody();
    await provisionProfile(stack.deps, partner.partnerId, body);
    const bad = await stack.get(`/v1/organizations/${body.internalOrgId}/spend?month=2036-13`, bearer(partner.apiKey));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ code: 'INVALID_MONTH', path: ['month'] }] });
    // Months outside what the service serves are refused the same way, the range stated, never a 500.
    for (const month of ['0000-01', '1999-12', '2200-01', '9999-12']) {
      const outside = await stack.get(
        `/v1/organizations/${body.internalOrgId}/spend?month=${month}`,
        bearer(partner.apiKey),
      );
      expect(outside.status, month).toBe(400);
      expect(outside.body.details).toEqual([
        {
          code: 'INVALID_MONTH',
          message: 'month must be YYYY-MM from 2000-01 to 2199-12, e.g. 2026-11',
          path: ['month'],
        },
      ]);
    }
    const edge = await stack.get(`/v1/organizations/${body.internalOrgId}/spend?month=2199-12`, bearer(partner.apiKey));
    expect(edge.status).toBe(200);

    const other = await stack.createPartner();
    const foreign = await stack.get(`/v1/organizations/${body.internalOrgId}/spend`, bearer(other.apiKey));
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('ORGANIZATION_NOT_FOUND');
  });
});
