/**
 * The SDK's calls of the partner order routes (catalog, orders, sandbox orders): what
 * each method sends and which failures it retries, against a recording fetch (the same
 * methods against the running stack: order-methods.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { PartnerApiError, PartnerClient } from '../../sdk/src/index';

interface Sent {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: unknown;
}

/** A client whose fetch answers from `answer` and records every request. */
function aRecordedClient(answer: (request: Sent, index: number) => { status: number; body: unknown }) {
  const sent: Sent[] = [];
  const client = new PartnerClient({
    apiKey: 'sk_test_key',
    baseUrl: 'https://sandbox-api.example-procurement.com/',
    sleep: async () => {},
    fetch: async (input, init) => {
      const request: Sent = {
        method: init?.method ?? 'GET',
        url: new URL(String(input)),
        headers: new Headers(init?.headers),
        body: init?.body === undefined ? undefined : JSON.parse(String(init.body)),
      };
      sent.push(request);
      const { status, body } = answer(request, sent.length - 1);
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json', 'Request-Id': `req-${sent.length}` },
      });
    },
  });
  return { client, sent };
}

const anOrder = (id: string) => ({ id, status: 'pending', partner_org_id: 'acme-1' });

describe('SDK calls of the order routes', () => {
  it('catalog.list asks GET /v1/catalog/products with the Bearer key', async () => {
    const { client, sent } = aRecordedClient(() => ({ status: 200, body: { data: [], has_more: false } }));
    expect(await client.catalog.list()).toEqual({ data: [], has_more: false });
    expect(sent[0]).toMatchObject({ method: 'GET', body: undefined });
    expect(sent[0]!.url.href).toBe('https://sandbox-api.example-procurement.com/v1/catalog/products');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer sk_test_key');
  });

  it('orders.retrieve asks GET /v1/orders/{order_id}', async () => {
    const { client, sent } = aRecordedClient(() => ({ status: 200, body: anOrder('o-1') }));
    expect(await client.orders.retrieve('o-1')).toEqual(anOrder('o-1'));
    expect(sent[0]!.url.pathname).toBe('/v1/orders/o-1');
  });

  it('orders.list iterates every page, each asked with starting_after the last id before it', async () => {
    const pages = [
      { data: [anOrder('o-3'), anOrder('o-2')], has_more: true },
      { data: [anOrder('o-1')], has_more: false },
    ];
    const { client, sent } = aRecordedClient((_request, index) => ({ status: 200, body: pages[index] }));
    const ids: string[] = [];
    for await (const order of client.orders.list({ internalOrgId: 'acme-1', pageSize: 2 })) ids.push(order.id);
    expect(ids).toEqual(['o-3', 'o-2', 'o-1']);
    expect(sent.map((request) => Object.fromEntries(request.url.searchParams))).toEqual([
      { internal_org_id: 'acme-1', limit: '2' },
      { internal_org_id: 'acme-1', limit: '2', starting_after: 'o-2' },
    ]);
  });

  it('sandbox.orders.create sends the documented snake_case body and resolves to { success, order }', async () => {
    const { client, sent } = aRecordedClient(() => ({ status: 201, body: { success: true, order: anOrder('o-9') } }));
    const created = await client.sandbox.orders.create({
      internalUserId: 'u-1',
      internalOrgId: 'acme-1',
      items: [{ productId: 'glove-m', quantity: 2 }],
      internalShippingLocationId: 'loc-1',
    });
    expect('order' in created && created.order.id).toBe('o-9');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      body: {
        internal_user_id: 'u-1',
        internal_org_id: 'acme-1',
        items: [{ product_id: 'glove-m', quantity: 2 }],
        internal_shipping_location_id: 'loc-1',
      },
    });
    expect(sent[0]!.url.pathname).toBe('/v1/sandbox/orders');
  });

  it('sandbox.orders.create also takes the wire name product_id, as plain JavaScript copied from the API reference sends it', async () => {
    const { client, sent } = aRecordedClient(() => ({ status: 201, body: { success: true, order: anOrder('o-9') } }));
    const items = [
      { product_id: 'glove-m', quantity: 2 },
      { productId: 'mask-l', quantity: 1 },
    ];
    await client.sandbox.orders.create({ internalUserId: 'u-1', items });
    expect(sent[0]!.body).toEqual({
      internal_user_id: 'u-1',
      items: [
        { product_id: 'glove-m', quantity: 2 },
        { product_id: 'mask-l', quantity: 1 },
      ],
    });
  });

  it('sandbox.orders transitions post to /{order_id}/{action} with only the fields given', async () => {
    const { client, sent } = aRecordedClient(() => ({ status: 200, body: { success: true, order: anOrder('o-9') } }));
    await client.sandbox.orders.confirm('o-9');
    await client.sandbox.orders.ship('o-9', {
      trackingNumber: '1Z',
      carrier: 'UPS',
      trackingUrl: 'https://track.example.com/1Z',
      estimatedDelivery: '2036-01-05T17:00:00Z',
    });
    await client.sandbox.orders.deliver('o-9', { signature: 'J. Smith' });
    await client.sandbox.orders.cancel('o-9', { reason: 'duplicate' });
    await client.sandbox.orders.refund('o-9', { amount: 12.5, reason: 'one box damaged' });
    expect(sent.map((request) => [request.url.pathname, request.body])).toEqual([
      ['/v1/sandbox/orders/o-9/confirm', {}],
      [
        '/v1/sandbox/orders/o-9/ship',
        {
          tracking_number: '1Z',
          carrier: 'UPS',
          tracking_url: 'https://track.example.com/1Z',
          estimated_delivery: '2036-01-05T17:00:00Z',
        },
      ],
      ['/v1/sandbox/orders/o-9/deliver', { signature: 'J. Smith' }],
      ['/v1/sandbox/orders/o-9/cancel', { reason: 'duplicate' }],
      ['/v1/sandbox/orders/o-9/refund', { amount: 12.5, reason: 'one box damaged' }],
    ]);
  });

  it('never retries a sandbox order change after a 500 (it may have happened), but does after a 429', async () => {
    const failing = aRecordedClient(() => ({
      status: 500,
      body: { error: 'Internal Server Error', message: 'boom', code: 'INTERNAL_ERROR', details: [] },
    }));
    await expect(failing.client.sandbox.orders.create({ profileId: 'p-1', items: [] })).rejects.toBeInstanceOf(
      PartnerApiError,
    );
    expect(failing.sent).toHaveLength(1);

    const limited = aRecordedClient((_request, index) =>
      index === 0
        ? {
            status: 429,
            body: {
              error: 'Too Many Requests',
              message: 'slow down',
              code: 'RATE_LIMIT_EXCEEDED',
              details: [],
              retry_after: 1,
            },
          }
        : { status: 201, body: { success: true, order: anOrder('o-1') } },
    );
    expect(await limited.client.sandbox.orders.create({ profileId: 'p-1', items: [] })).toMatchObject({
      order: { id: 'o-1' },
    });
    expect(limited.sent).toHaveLength(2);
  });
});
