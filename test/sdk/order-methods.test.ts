/**
 * The SDK's order methods against a running local sandbox stack: each resolves to the
 * documented body (validated against docs/openapi.json), `orders.list` walks every page,
 * and the failures a partner branches on reject with their typed errors.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { PartnerClient, PartnerConflictError, PartnerNotFoundError, PartnerPermissionError } from '../../sdk/src/index';
import { schemaProblems } from '../support/api-document';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;
const SHIPMENT = {
  trackingNumber: '1Z999AA10123456784',
  carrier: 'UPS',
  trackingUrl: 'https://track.example.com/1Z999AA10123456784',
  estimatedDelivery: '2036-01-09T17:00:00Z',
};

/** A client of a new partner with one user who can order, and the paths it asked for. */
async function anOrderingClient() {
  const partner = await stack.createPartner();
  const buyer = await provisionProfile(stack.deps, partner.partnerId, aSetupBody());
  const asked: URL[] = [];
  const client = new PartnerClient({
    apiKey: partner.apiKey,
    baseUrl: stack.url,
    sleep: async () => {},
    fetch: (input, init) => {
      asked.push(new URL(String(input)));
      return fetch(input, init);
    },
  });
  // The buyer has no order limit, so every placement is an order, never an approval request.
  const placeOrder = async (quantity = 1) => {
    const outcome = await client.sandbox.orders.create({
      internalUserId: buyer.profile.internalUserId,
      items: [{ productId: PRODUCT_ID, quantity }],
    });
    if (!('order' in outcome)) throw new Error('a buyer without a limit got an approval request');
    return outcome;
  };
  return { client, buyer, asked, placeOrder };
}

const documented = (schema: string, value: unknown) =>
  schemaProblems({ $ref: `#/components/schemas/${schema}` }, value);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error as Record<string, unknown>,
  );

describe('PartnerClient order methods on the local stack', () => {
  it('catalog.list resolves to the documented product list', async () => {
    const { client } = await anOrderingClient();
    const catalog = await client.catalog.list();
    expect(documented('CatalogProductList', catalog)).toEqual([]);
    expect(catalog.data.map((product) => product.product_id)).toContain(PRODUCT_ID);
    expect(catalog.has_more).toBe(false);
  });

  it('sandbox.orders.create, confirm, ship, deliver and refund walk an order to refunded, each resolving to the documented order', async () => {
    const { client, buyer, placeOrder } = await anOrderingClient();
    const placed = await placeOrder(2);
    expect(placed.order).toMatchObject({
      status: 'pending',
      partner_org_id: buyer.organization.internalOrgId,
      items: [{ product_id: PRODUCT_ID, quantity: 2 }],
    });
    const id = placed.order.id;

    const confirmed = await client.sandbox.orders.confirm(id);
    const shipped = await client.sandbox.orders.ship(id, SHIPMENT);
    const delivered = await client.sandbox.orders.deliver(id, { signature: 'R. Front Desk' });
    const partly = await client.sandbox.orders.refund(id, { amount: 1.5, reason: 'one box damaged' });
    expect(partly.order).toMatchObject({ status: 'delivered', refund_amount: 1.5, amount_refunded: 1.5 });
    const refunded = await client.sandbox.orders.refund(id); // the rest

    for (const change of [placed, confirmed, shipped, delivered, partly, refunded])
      expect(documented('OrderChange', change)).toEqual([]);
    expect([confirmed, shipped, delivered, refunded].map((change) => change.order.status)).toEqual([
      'confirmed',
      'shipped',
      'delivered',
      'refunded',
    ]);
    expect(shipped.order).toMatchObject({
      tracking_number: SHIPMENT.trackingNumber,
      carrier: 'UPS',
      tracking_url: SHIPMENT.trackingUrl,
    });
    expect(refunded.order).toMatchObject({ signature: 'R. Front Desk', amount_refunded: placed.order.total });
    expect(refunded.order.refunds?.map((refund) => refund.amount)).toEqual([
      1.5,
      Math.round(placed.order.total * 100 - 150) / 100,
    ]);
  });

  it('sandbox.orders.cancel cancels a pending order with its reason', async () => {
    const { client, placeOrder } = await anOrderingClient();
    const { order } = await placeOrder();
    const cancelled = await client.sandbox.orders.cancel(order.id, { reason: 'ordered twice' });
    expect(documented('OrderChange', cancelled)).toEqual([]);
    expect(cancelled.order).toMatchObject({ status: 'cancelled', cancellation_reason: 'ordered twice' });
  });

  it('orders.retrieve resolves to the documented order, as it is now', async () => {
    const { client, placeOrder } = await anOrderingClient();
    const { order } = await placeOrder();
    await client.sandbox.orders.confirm(order.id);
    const retrieved = await client.orders.retrieve(order.id);
    expect(documented('Order', retrieved)).toEqual([]);
    expect(retrieved).toMatchObject({ id: order.id, status: 'confirmed' });
  });

  it('orders.list iterates over every page, newest first, asking each next page with starting_after the last id', async () => {
    const { client, buyer, asked, placeOrder } = await anOrderingClient();
    const placed: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      placed.push((await placeOrder()).order.id);
      stack.clock.advance(1000); // newest first is by creation time
    }
    asked.length = 0;

    const listed = [];
    for await (const order of client.orders.list({ internalOrgId: buyer.organization.internalOrgId, pageSize: 2 }))
      listed.push(order);

    expect(listed.map((order) => order.id)).toEqual([...placed].reverse());
    for (const order of listed) expect(documented('OrderList', { data: [order], has_more: false })).toEqual([]);
    expect(asked.map((url) => url.searchParams.get('starting_after'))).toEqual([null, listed[1]!.id, listed[3]!.id]);
    expect(asked.every((url) => url.searchParams.get('limit') === '2')).toBe(true);

    // The filters go as the API's parameters, a Date as its ISO instant.
    asked.length = 0;
    const since = new Date(Date.parse(listed[2]!.created_at));
    const recent = [];
    for await (const order of client.orders.list({
      internalOrgId: buyer.organization.internalOrgId,
      createdGte: since,
      internalUserId: buyer.profile.internalUserId,
    }))
      recent.push(order.id);
    expect(recent).toEqual([listed[0]!.id, listed[1]!.id, listed[2]!.id]);
    expect(asked[0]!.searchParams.get('created_gte')).toBe(since.toISOString());
    expect(asked[0]!.searchParams.get('internal_user_id')).toBe(buyer.profile.internalUserId);
  });

  describe('typed errors', () => {
    it("403 for another partner's order: PartnerPermissionError", async () => {
      const owner = await anOrderingClient();
      const { order } = await owner.placeOrder();
      const { client } = await anOrderingClient();
      // One call at a time: a second call's rejection must not arrive before anything awaits it.
      for (const attempt of [() => client.orders.retrieve(order.id), () => client.sandbox.orders.confirm(order.id)]) {
        const error = await failureOf(attempt());
        expect(error).toBeInstanceOf(PartnerPermissionError);
        expect(error).toMatchObject({
          status: 403,
          code: 'FORBIDDEN',
          message: `Order ${order.id} belongs to another partner`,
        });
        expect(error.requestId).toBeTruthy();
      }
    });

    it('404 for an unknown order: PartnerNotFoundError', async () => {
      const { client } = await anOrderingClient();
      const unknown = randomUUID();
      const error = await failureOf(client.orders.retrieve(unknown));
      expect(error).toBeInstanceOf(PartnerNotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND', message: `No order ${unknown}` });
    });

    it('409 for a change the status does not allow: PartnerConflictError with INVALID_ORDER_TRANSITION and its data', async () => {
      const { client, placeOrder } = await anOrderingClient();
      const { order } = await placeOrder();
      const error = await failureOf(client.sandbox.orders.ship(order.id, SHIPMENT));
      expect(error).toBeInstanceOf(PartnerConflictError);
      expect(error).toMatchObject({
        status: 409,
        code: 'INVALID_ORDER_TRANSITION',
        details: [{ code: 'INVALID_ORDER_TRANSITION', path: ['status'] }],
        body: { data: { order_id: order.id, status: 'pending', requested_status: 'shipped' } },
      });
    });
  });
});
