/**
 * The partner order API on the local sandbox stack: what a partner's integration sees
 * (status, body, headers) and what its webhook receiver gets, one signed webhook per
 * change, with the documented fields (docs/webhooks.md, docs/orders-api.md).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_ACTIONS, type OrderAction } from '../../functions/domain/orders/transition-input';
import { ORDER_TRANSITIONS } from '../../functions/domain/orders/order-lifecycle';
import { ORDER_STATUSES, type OrderStatus } from '../../functions/domain/orders/order';
import { createOrdersApiHandler } from '../../functions/lambdas/orders-api';
import { routesOn } from '../../functions/routes';
import {
  anItem,
  anOrderingPartner,
  deliverEverything,
  importDriftProducts,
  type OrderingPartner,
  webhooksOf,
} from '../support/order-pipeline';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await importDriftProducts(stack);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  const response = await fetch(`${stack.url}${path}`, { headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://track.example.com/1Z999AA10123456784',
  estimated_delivery: '2036-01-09T17:00:00.000Z',
};
const INPUT: Record<OrderAction, Record<string, unknown>> = {
  confirm: {},
  ship: SHIPMENT,
  deliver: { signature: 'R. Front Desk' },
  cancel: { reason: 'ordered twice' },
  refund: { reason: 'one box damaged' },
};

const placeOrder = (partner: OrderingPartner, body: Record<string, unknown> = {}) =>
  stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-1999', 2)], ...body },
    partner.bearer,
  );

const act = (partner: OrderingPartner, orderId: string, action: OrderAction, body: unknown = INPUT[action]) =>
  stack.post(`/v1/sandbox/orders/${orderId}/${action}`, body, partner.bearer);

/** The actions that lead from pending to `status`. */
const PATH_TO: Record<OrderStatus, OrderAction[]> = {
  pending: [],
  confirmed: ['confirm'],
  shipped: ['confirm', 'ship'],
  delivered: ['confirm', 'ship', 'deliver'],
  cancelled: ['cancel'],
  refunded: ['confirm', 'ship', 'deliver', 'refund'],
};

describe('GET /v1/catalog/products', () => {
  it('lists the active products with their documented fields, and has_more false', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const response = await get('/v1/catalog/products', partner.bearer);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe('60');
    expect(response.headers.get('request-id')).toBeTruthy();
    expect(response.body.has_more).toBe(false);
    expect(response.body.data.length).toBeGreaterThan(30);
    for (const product of response.body.data) {
      expect(Object.keys(product).sort()).toEqual([
        'category',
        'description',
        'image_url',
        'name',
        'price',
        'product_id',
        'unit',
      ]);
      expect(product.image_url).toMatch(new RegExp(`^${stack.url}/embedded/assets/products/[0-9a-f]{64}[.]svg$`));
    }
    const ids = response.body.data.map((p: { product_id: string }) => p.product_id);
    expect(ids).toContain('DRIFT-1999');
    expect(ids).not.toContain('RETIRED-1');
    expect(response.body.data.find((p: { product_id: string }) => p.product_id === 'DRIFT-010').price).toBe(0.1);
  });

  it('refuses a key without orders:read (403) and a key in X-API-Key (401)', async () => {
    const narrow = await stack.createPartner({ scopes: ['organization:write', 'session:write'] });
    const refused = await get('/v1/catalog/products', { Authorization: `Bearer ${narrow.apiKey}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'Forbidden', code: 'FORBIDDEN', details: [] });
    const { apiKey } = await stack.createPartner();
    expect((await get('/v1/catalog/products', { 'X-API-Key': apiKey })).status).toBe(401);
  });
});

describe('POST /v1/sandbox/orders', () => {
  it('places the order as the user would: 201 with the order, and one signed order.created with the documented fields', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const response = await placeOrder(partner, {
      items: [anItem('DRIFT-010'), anItem('DRIFT-020'), anItem('DRIFT-1999', 3)],
    });
    expect(response.status, response.text).toBe(201);
    const { order } = response.body;
    expect(response.body.success).toBe(true);
    // 0.10 + 0.20 + 3 × 19.99 = 60.27 exactly; shipping 9.95 under 150. Stripe Tax (the stand-in's Austin, TX: 8.25 % on
    // goods and shipping, each line rounded): 0.01 + 0.02 + 4.95 + 0.82 = 5.80.
    expect(order).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'pending',
      partner_org_id: partner.buyer.organization.internalOrgId,
      internal_user_id: partner.buyer.profile.internalUserId,
      user_email: partner.buyer.profile.email,
      po_number: null,
      notes: null,
      items: [
        { product_id: 'DRIFT-010', name: 'Cotton rolls', unit: 'bag', quantity: 1, price: 0.1 },
        { product_id: 'DRIFT-020', name: 'Bite blocks', unit: 'each', quantity: 1, price: 0.2 },
        { product_id: 'DRIFT-1999', name: 'Exam gloves', unit: 'box of 100', quantity: 3, price: 19.99 },
      ],
      subtotal: 60.27,
      tax: 5.8,
      shipping: 9.95,
      total: 76.02,
      payment_method: 'invoice',
      shipping_address: { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' },
      created_at: stack.clock.now().toISOString(),
      updated_at: stack.clock.now().toISOString(),
      status_history: [{ status: 'pending', at: stack.clock.now().toISOString() }],
    });

    await deliverEverything(stack);
    const webhooks = webhooksOf(receiver, order.id, partner.secret);
    expect(webhooks.map((w) => w.event)).toEqual(['order.created']);
    expect(webhooks[0]!.body.data).toEqual({
      order_id: order.id,
      partner_org_id: partner.buyer.organization.internalOrgId,
      internal_user_id: partner.buyer.profile.internalUserId,
      po_number: null,
      notes: null,
      user_email: partner.buyer.profile.email,
      status: 'pending',
      items: [
        { product_id: 'DRIFT-010', name: 'Cotton rolls', quantity: 1, price: 0.1 },
        { product_id: 'DRIFT-020', name: 'Bite blocks', quantity: 1, price: 0.2 },
        { product_id: 'DRIFT-1999', name: 'Exam gloves', quantity: 3, price: 19.99 },
      ],
      subtotal: 60.27,
      tax: 5.8,
      shipping: 9.95,
      total: 76.02,
      payment_method: 'invoice',
      shipping_address: { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' },
      sequence: 1,
      previous_status: null,
      // Not invoiced: an order is invoiced when it ships.
      invoice: null,
    });
    const listed = await get(`/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}`, partner.bearer);
    expect(listed.body.data).toEqual([order]);
    // The user's cart is not touched by a sandbox order.
    expect((await stack.deps.cartService.view(partner.buyer.profile.id)).lines).toEqual([]);
  });

  it('ships to the named location, by the partner’s id, or answers 400 SHIPPING_LOCATION_UNAVAILABLE', async () => {
    const partner = await anOrderingPartner(
      stack,
      receiver,
      aSetupBody({
        shippingLocations: [
          {
            internalShippingLocationId: 'hq',
            name: 'HQ',
            address: { line1: '1 Main St', city: 'Austin', province: 'TX', postalCode: '78701' },
            isDefault: true,
          },
          {
            internalShippingLocationId: 'annex',
            name: 'Annex',
            address: {
              line1: '1 Market St',
              line2: 'Unit 4',
              city: 'San Francisco',
              province: 'CA',
              postalCode: '94105',
            },
            isDefault: false,
          },
        ],
      }),
    );
    const annex = await placeOrder(partner, { internal_shipping_location_id: 'annex' });
    expect(annex.status).toBe(201);
    expect(annex.body.order.shipping_address).toEqual({
      line1: '1 Market St',
      line2: 'Unit 4',
      city: 'San Francisco',
      state: 'California',
      zip: '94105',
    });
    // Stripe Tax for San Francisco (the stand-in's 8.625 %, shipping untaxed): 8.625% of 39.98 = 3.448275 → 3.45.
    expect(annex.body.order.tax).toBe(3.45);

    const unknown = await placeOrder(partner, { internal_shipping_location_id: 'nowhere' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'SHIPPING_LOCATION_UNAVAILABLE',
      details: [{ path: ['internal_shipping_location_id'] }],
    });
  });

  it('answers 400 with every problem of the body, and PRODUCT_UNAVAILABLE for unknown or inactive products, placing nothing', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const invalid = await stack.post(
      '/v1/sandbox/orders',
      { items: [anItem('DRIFT-010', 0), anItem('DRIFT-010'), { product_id: 'has space' }] },
      partner.bearer,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_ERROR');
    expect(
      invalid.body.details.map((d: { code: string; path: string[] }) => `${d.code}@${d.path.join('.')}`).sort(),
    ).toEqual(
      [
        'IDENTIFIER_REQUIRED@',
        'INVALID_FORMAT@items.2.product_id',
        'REQUIRED@items.2.quantity',
        'TOO_SMALL@items.0.quantity',
      ].sort(),
    );
    const twice = await placeOrder(partner, {
      items: [anItem('DRIFT-010'), anItem('DRIFT-020'), anItem('DRIFT-010', 2)],
    });
    expect(twice.body.details).toEqual([
      expect.objectContaining({ code: 'DUPLICATE_ID', path: ['items', '2', 'product_id'] }),
    ]);

    const both = await placeOrder(partner, { profile_id: partner.buyer.profile.id });
    expect(both.body.details).toEqual([expect.objectContaining({ code: 'CONFLICTING_FIELDS', path: ['profile_id'] })]);

    const unavailable = await placeOrder(partner, { items: [anItem('RETIRED-1'), anItem('NO-SUCH-SKU')] });
    expect(unavailable.status).toBe(400);
    expect(unavailable.body).toMatchObject({ code: 'PRODUCT_UNAVAILABLE' });
    // Product ids are matched exactly: a lower-case spelling of DRIFT-010 is another, unknown, product.
    const otherCase = await placeOrder(partner, { items: [anItem('drift-010')] });
    expect(otherCase.body).toMatchObject({ code: 'PRODUCT_UNAVAILABLE' });
    expect(unavailable.body.details.map((d: { message: string }) => d.message).join(' ')).toMatch(
      /RETIRED-1.*NO-SUCH-SKU|NO-SUCH-SKU.*RETIRED-1/,
    );

    const listed = await get(`/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}`, partner.bearer);
    expect(listed.body).toEqual({ data: [], has_more: false });
  });

  it('resolves the user as the handshake does: by profile_id, ambiguity named, other organizations and partners refused', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const byProfile = await stack.post(
      '/v1/sandbox/orders',
      { profile_id: partner.buyer.profile.id, items: [anItem('DRIFT-010')] },
      partner.bearer,
    );
    expect(byProfile.status).toBe(201);

    // The same internal_user_id in a second organization of the same partner.
    await provisionProfile(
      stack.deps,
      partner.partnerId,
      aSetupBody({ internalUserId: partner.buyer.profile.internalUserId }),
    );
    const ambiguous = await placeOrder(partner);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.details).toEqual([
      expect.objectContaining({ code: 'AMBIGUOUS_USER', path: ['internal_user_id'] }),
    ]);
    const chosen = await placeOrder(partner, { internal_org_id: partner.buyer.organization.internalOrgId });
    expect(chosen.status).toBe(201);

    const wrongOrg = await stack.post(
      '/v1/sandbox/orders',
      { profile_id: partner.buyer.profile.id, internal_org_id: 'someone-else', items: [anItem('DRIFT-010')] },
      partner.bearer,
    );
    expect(wrongOrg.status).toBe(404);
    expect(wrongOrg.body.code).toBe('PROFILE_NOT_FOUND');

    const other = await anOrderingPartner(stack, receiver);
    const foreign = await stack.post(
      '/v1/sandbox/orders',
      { profile_id: partner.buyer.profile.id, items: [anItem('DRIFT-010')] },
      other.bearer,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('FORBIDDEN');
  });

  it('refuses a disabled user, as the module would (400 PROFILE_NOT_LINKED)', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    await stack.deps.organizations.unlinkProfile(partner.buyer.profile.id, stack.clock.now());
    const response = await placeOrder(partner);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('PROFILE_NOT_LINKED');
  });

  it('needs orders:write', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const { apiKey } = await stack.deps.partnerAdmin.issueKey(partner.partnerId, ['orders:read']);
    const response = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-010')] },
      { Authorization: `Bearer ${apiKey}` },
    );
    expect(response.status).toBe(403);
  });
});

describe('POST /v1/sandbox/orders/{order_id}/{action}', () => {
  it('drives an order through every status: each change answers the order and sends exactly one webhook with its documented fields', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = (await placeOrder(partner)).body.order;
    const at = () => stack.clock.now().toISOString();

    stack.clock.advance(60_000);
    const confirmed = await act(partner, placed.id, 'confirm', '');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ success: true, order: { status: 'confirmed', confirmed_at: at() } });

    stack.clock.advance(60_000);
    const shipped = await act(partner, placed.id, 'ship');
    expect(shipped.body.order).toMatchObject({ status: 'shipped', ...SHIPMENT, shipped_at: at() });

    stack.clock.advance(60_000);
    const delivered = await act(partner, placed.id, 'deliver');
    expect(delivered.body.order).toMatchObject({ status: 'delivered', delivered_at: at(), signature: 'R. Front Desk' });

    stack.clock.advance(60_000);
    const refunded = await act(partner, placed.id, 'refund');
    expect(refunded.status).toBe(200);
    expect(refunded.body.order).toMatchObject({
      status: 'refunded',
      refund_amount: placed.total,
      amount_refunded: placed.total,
      refunded_at: at(),
      refund_reason: 'one box damaged',
    });
    expect(refunded.body.order.status_history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'confirmed',
      'shipped',
      'delivered',
      'refunded',
    ]);

    const read = await get(`/v1/orders/${placed.id}`, partner.bearer);
    expect(read.status).toBe(200);
    // The read adds the order's invoice: none here, where no invoicing consumer runs.
    expect(read.body).toEqual({ ...refunded.body.order, invoice: null });

    await deliverEverything(stack);
    const webhooks = webhooksOf(receiver, placed.id, partner.secret);
    expect(webhooks.map((w) => w.event).sort()).toEqual([
      'order.confirmed',
      'order.created',
      'order.delivered',
      'order.refunded',
      'order.shipped',
    ]);
    const data = (event: string) => webhooks.find((w) => w.event === event)!.body.data;
    const common = {
      order_id: placed.id,
      partner_org_id: partner.buyer.organization.internalOrgId,
      internal_user_id: partner.buyer.profile.internalUserId,
      po_number: null,
      notes: null,
      // No invoicing consumer runs here: the shipped order is never invoiced.
      invoice: null,
    };
    expect(data('order.confirmed')).toEqual({
      ...common,
      status: 'confirmed',
      confirmed_at: confirmed.body.order.confirmed_at,
      sequence: 2,
      previous_status: 'pending',
    });
    expect(data('order.shipped')).toEqual({
      ...common,
      status: 'shipped',
      ...SHIPMENT,
      shipped_at: shipped.body.order.shipped_at,
      items: [{ product_id: 'DRIFT-1999', name: 'Exam gloves', quantity: 2, price: 19.99 }],
      total: placed.total,
      shipping_address: placed.shipping_address,
      sequence: 3,
      previous_status: 'confirmed',
    });
    expect(data('order.delivered')).toEqual({
      ...common,
      status: 'delivered',
      delivered_at: delivered.body.order.delivered_at,
      signature: 'R. Front Desk',
      sequence: 4,
      previous_status: 'shipped',
    });
    expect(data('order.refunded')).toEqual({
      ...common,
      status: 'refunded',
      refunded_at: refunded.body.order.refunded_at,
      refund_amount: placed.total,
      amount_refunded: placed.total,
      reason: 'one box damaged',
      sequence: 5,
      previous_status: 'delivered',
    });
  });

  it('cancels a pending or confirmed order with one order.cancelled carrying the reason', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const pending = (await placeOrder(partner)).body.order;
    const confirmed = (await placeOrder(partner)).body.order;
    await act(partner, confirmed.id, 'confirm');
    for (const order of [pending, confirmed]) {
      const cancelled = await act(partner, order.id, 'cancel');
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.order).toMatchObject({
        status: 'cancelled',
        cancelled_at: expect.any(String),
        cancellation_reason: 'ordered twice',
      });
    }
    const bare = (await placeOrder(partner)).body.order;
    const withoutBody = await fetch(`${stack.url}/v1/sandbox/orders/${bare.id}/cancel`, {
      method: 'POST',
      headers: partner.bearer,
    });
    expect(withoutBody.status).toBe(200);
    await deliverEverything(stack);
    for (const order of [pending, confirmed, bare]) {
      const cancellations = webhooksOf(receiver, order.id, partner.secret).filter((w) => w.event === 'order.cancelled');
      expect(cancellations).toHaveLength(1);
      expect(Object.keys(cancellations[0]!.body.data).sort()).toEqual(
        [
          'cancelled_at',
          'order_id',
          'partner_org_id',
          'internal_user_id',
          'po_number',
          'notes',
          'status',
          'sequence',
          'previous_status',
          'invoice',
          ...(order === bare ? [] : ['reason']),
        ].sort(),
      );
    }
  });

  it('refuses every transition the lifecycle does not allow with 409 INVALID_ORDER_TRANSITION, changing nothing and sending nothing', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const orderIn = {} as Record<OrderStatus, string>;
    for (const status of ORDER_STATUSES) {
      const order = (await placeOrder(partner)).body.order;
      for (const action of PATH_TO[status]) expect((await act(partner, order.id, action)).status).toBe(200);
      orderIn[status] = order.id;
    }
    await deliverEverything(stack);
    const before = receiver.requests.length;

    const refused: string[] = [];
    for (const status of ORDER_STATUSES) {
      for (const action of ORDER_ACTIONS) {
        if (ORDER_TRANSITIONS[action].from.includes(status)) continue;
        const response = await act(partner, orderIn[status], action);
        expect(response.status, `${action} a ${status} order`).toBe(409);
        expect(response.body).toEqual({
          error: 'Conflict',
          message: `Order ${orderIn[status]} is ${status}; it cannot become ${ORDER_TRANSITIONS[action].to}`,
          code: 'INVALID_ORDER_TRANSITION',
          details: [{ code: 'INVALID_ORDER_TRANSITION', message: expect.any(String), path: ['status'] }],
          data: { order_id: orderIn[status], status, requested_status: ORDER_TRANSITIONS[action].to },
        });
        refused.push(`${status}:${action}`);
      }
    }
    expect(refused).toHaveLength(ORDER_STATUSES.length * ORDER_ACTIONS.length - 6);
    for (const status of ORDER_STATUSES)
      expect((await get(`/v1/orders/${orderIn[status]}`, partner.bearer)).body.status).toBe(status);
    await deliverEverything(stack);
    expect(receiver.requests.length).toBe(before);
  });

  it('makes up what ship and deliver leave out: a UPS number, its https tracking page, delivery three days from now, "Front desk"', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const order = (await placeOrder(partner)).body.order;
    await act(partner, order.id, 'confirm');
    const now = stack.clock.now();
    const shipped = await act(partner, order.id, 'ship', ''); // no body at all
    expect(shipped.status, shipped.text).toBe(200);
    const trackingNumber = `1Z${order.id.replaceAll('-', '').slice(0, 16).toUpperCase()}`;
    expect(shipped.body.order).toMatchObject({
      status: 'shipped',
      carrier: 'UPS',
      tracking_number: trackingNumber,
      tracking_url: `https://track.example.com/${trackingNumber}`,
      estimated_delivery: `${new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10)}T17:00:00Z`,
    });
    const delivered = await act(partner, order.id, 'deliver', {});
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.body.order).toMatchObject({ status: 'delivered', signature: 'Front desk' });
  });

  it('keeps the fields given and fills in only the rest', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const order = (await placeOrder(partner)).body.order;
    await act(partner, order.id, 'confirm');
    const shipped = await act(partner, order.id, 'ship', { carrier: 'FedEx', tracking_number: '7712' });
    expect(shipped.body.order).toMatchObject({
      carrier: 'FedEx',
      tracking_number: '7712',
      tracking_url: 'https://track.example.com/7712',
    });
  });

  it('answers 400 with details for invalid inputs: blank tracking, an http tracking URL, a refund above the total', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const order = (await placeOrder(partner)).body.order;
    await act(partner, order.id, 'confirm');
    const blank = await act(partner, order.id, 'ship', {
      tracking_number: '',
      carrier: ' ',
      estimated_delivery: 'soon',
    });
    expect(blank.status).toBe(400);
    expect(blank.body.details.map((d: { path: string[] }) => d.path[0]).sort()).toEqual([
      'carrier',
      'estimated_delivery',
      'tracking_number',
    ]);
    const http = await act(partner, order.id, 'ship', { ...SHIPMENT, tracking_url: 'http://track.example.com/1' });
    expect(http.body.details).toEqual([expect.objectContaining({ code: 'INVALID_FORMAT', path: ['tracking_url'] })]);
    await act(partner, order.id, 'ship');
    await act(partner, order.id, 'deliver');
    const tooMuch = await act(partner, order.id, 'refund', { amount: Math.round(order.total * 100 + 1) / 100 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details).toEqual([expect.objectContaining({ code: 'TOO_BIG', path: ['amount'] })]);
    expect((await act(partner, order.id, 'refund', '[1]')).body.details[0].code).toBe('INVALID_BODY');
  });

  it('refunds a delivered order in parts: it stays delivered until the refunds reach the total, each refund its own order.refunded', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = (await placeOrder(partner)).body.order;
    for (const action of PATH_TO.delivered) await act(partner, placed.id, action);
    const totalCents = Math.round(placed.total * 100);

    const first = await act(partner, placed.id, 'refund', { amount: 5, reason: 'one box damaged' });
    expect(first.status, first.text).toBe(200);
    expect(first.body.order).toMatchObject({
      status: 'delivered',
      refund_amount: 5,
      amount_refunded: 5,
      refund_reason: 'one box damaged',
    });
    expect(first.body.order.status_history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'confirmed',
      'shipped',
      'delivered',
    ]);

    const second = await act(partner, placed.id, 'refund', { amount: 2.5 });
    expect(second.body.order).toMatchObject({ status: 'delivered', refund_amount: 2.5, amount_refunded: 7.5 });
    expect(second.body.order.refund_reason).toBeUndefined();

    const remaining = (totalCents - 750) / 100;
    const tooMuch = await act(partner, placed.id, 'refund', { amount: (totalCents - 750 + 1) / 100 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details).toEqual([
      expect.objectContaining({
        code: 'TOO_BIG',
        path: ['amount'],
        message: `amount must be at most what is left to refund, $${remaining.toFixed(2)} ($7.50 of $${placed.total.toFixed(2)} was refunded)`,
      }),
    ]);

    const rest = await act(partner, placed.id, 'refund', '');
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.order).toMatchObject({
      status: 'refunded',
      refund_amount: remaining,
      amount_refunded: placed.total,
    });
    expect(rest.body.order.refunds).toEqual([
      { amount: 5, refunded_at: expect.any(String), reason: 'one box damaged' },
      { amount: 2.5, refunded_at: expect.any(String) },
      { amount: remaining, refunded_at: expect.any(String) },
    ]);
    expect(rest.body.order.status_history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'confirmed',
      'shipped',
      'delivered',
      'refunded',
    ]);
    // Fully refunded: nothing more to refund.
    expect((await act(partner, placed.id, 'refund', { amount: 0.01 })).body.code).toBe('INVALID_ORDER_TRANSITION');

    await deliverEverything(stack);
    const refunds = webhooksOf(receiver, placed.id, partner.secret).filter((w) => w.event === 'order.refunded');
    expect(refunds.map((w) => w.body.data).sort((a, b) => Number(a.sequence) - Number(b.sequence))).toEqual([
      expect.objectContaining({
        status: 'delivered',
        previous_status: 'delivered',
        refund_amount: 5,
        amount_refunded: 5,
        reason: 'one box damaged',
        sequence: 5,
      }),
      expect.objectContaining({
        status: 'delivered',
        previous_status: 'delivered',
        refund_amount: 2.5,
        amount_refunded: 7.5,
        sequence: 6,
      }),
      expect.objectContaining({
        status: 'refunded',
        previous_status: 'delivered',
        refund_amount: remaining,
        amount_refunded: placed.total,
        sequence: 7,
      }),
    ]);
    expect(new Set(refunds.map((w) => w.deliveryId)).size).toBe(3);
  });

  it('refuses another partner’s order with 403 and an unknown one with 404, changing nothing', async () => {
    const owner = await anOrderingPartner(stack, receiver);
    const order = (await placeOrder(owner)).body.order;
    const other = await anOrderingPartner(stack, receiver);
    const foreign = await act(other, order.id, 'cancel');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await get(`/v1/orders/${order.id}`, other.bearer)).status).toBe(403);

    const unknown = randomUUID();
    expect((await act(owner, unknown, 'confirm')).body).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    expect((await get(`/v1/orders/${unknown}`, owner.bearer)).status).toBe(404);
    expect((await get('/v1/orders/not-an-id', owner.bearer)).status).toBe(404);
    expect((await get(`/v1/orders/${order.id}`, owner.bearer)).body.status).toBe('pending');
  });

  it('takes an order id in any case, as UUIDs are', async () => {
    const owner = await anOrderingPartner(stack, receiver);
    const order = (await placeOrder(owner)).body.order;
    const shouted = order.id.toUpperCase();
    expect((await get(`/v1/orders/${shouted}`, owner.bearer)).body).toMatchObject({ id: order.id, status: 'pending' });
    expect((await act(owner, shouted, 'confirm')).body).toMatchObject({ order: { id: order.id, status: 'confirmed' } });
  });
});

describe('GET /v1/orders', () => {
  it('lists an organization’s orders newest first, a page at a time with starting_after and has_more', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      stack.clock.advance(1_000);
      ids.push((await placeOrder(partner)).body.order.id);
    }
    const org = partner.buyer.organization.internalOrgId;
    const first = await get(`/v1/orders?internal_org_id=${org}&limit=2&utm_source=ignored`, partner.bearer);
    expect(first.status).toBe(200);
    expect(first.body.data.map((o: { id: string }) => o.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.has_more).toBe(true);
    const second = await get(`/v1/orders?internal_org_id=${org}&limit=2&starting_after=${ids[3]}`, partner.bearer);
    expect(second.body.data.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    expect(second.body.has_more).toBe(true);
    const last = await get(`/v1/orders?internal_org_id=${org}&limit=2&starting_after=${ids[1]}`, partner.bearer);
    expect(last.body).toMatchObject({ data: [{ id: ids[0] }], has_more: false });
    const all = await get(`/v1/orders?internal_org_id=${org}`, partner.bearer);
    expect(all.body.data).toHaveLength(5);
    expect(all.body.has_more).toBe(false);
  });

  it('answers 400 for a missing organization, a limit outside 1-100, or a starting_after of another organization; 404 for an unknown organization', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const org = partner.buyer.organization.internalOrgId;
    const missing = await get('/v1/orders', partner.bearer);
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([expect.objectContaining({ code: 'REQUIRED', path: ['internal_org_id'] })]);
    for (const limit of ['0', '101', 'abc', '2.5', '']) {
      const response = await get(`/v1/orders?internal_org_id=${org}&limit=${limit}`, partner.bearer);
      expect(response.status, `limit=${limit}`).toBe(400);
      expect(response.body.details[0].path).toEqual(['limit']);
    }
    expect((await get(`/v1/orders?internal_org_id=${org}&limit=100`, partner.bearer)).status).toBe(200);

    const sibling = await provisionProfile(stack.deps, partner.partnerId);
    const siblingOrder = (await placeOrder(partner, { internal_user_id: sibling.profile.internalUserId })).body.order;
    const crossed = await get(`/v1/orders?internal_org_id=${org}&starting_after=${siblingOrder.id}`, partner.bearer);
    expect(crossed.status).toBe(400);
    expect(crossed.body.details).toEqual([
      expect.objectContaining({ code: 'INVALID_CURSOR', path: ['starting_after'] }),
    ]);

    const unknown = await get('/v1/orders?internal_org_id=nobody', partner.bearer);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
  });

  it('filters by po_number, internal_user_id and a created_gte/created_lt range, a page at a time as before', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const org = partner.buyer.organization.internalOrgId;
    const second = await provisionProfile(
      stack.deps,
      partner.partnerId,
      aSetupBody({ internalOrgId: org, internalUserId: `second-${org}` }),
    );
    const placedAt: string[] = [];
    const ids: string[] = [];
    for (const [po, user] of [
      ['PO-A', partner.buyer],
      ['PO-B', second],
      ['PO-A', second],
      ['PO-A', partner.buyer],
    ] as const) {
      stack.clock.advance(60_000);
      const placed = await placeOrder(partner, { po_number: po, internal_user_id: user.profile.internalUserId });
      expect(placed.status, placed.text).toBe(201);
      ids.push(placed.body.order.id);
      placedAt.push(placed.body.order.created_at);
    }
    const list = (query: string) => get(`/v1/orders?internal_org_id=${org}&${query}`, partner.bearer);
    const idsOf = (response: TestResponse) => response.body.data.map((o: { id: string }) => o.id);

    expect(idsOf(await list('po_number=PO-A'))).toEqual([ids[3], ids[2], ids[0]]);
    expect(idsOf(await list('po_number=po-a'))).toEqual([]);
    expect(idsOf(await list(`internal_user_id=${second.profile.internalUserId}`))).toEqual([ids[2], ids[1]]);
    expect(idsOf(await list(`po_number=PO-A&internal_user_id=${second.profile.internalUserId}`))).toEqual([ids[2]]);
    // The range holds its start and leaves out its end; an offset names the same instant.
    expect(idsOf(await list(`created_gte=${placedAt[1]}&created_lt=${placedAt[3]}`))).toEqual([ids[2], ids[1]]);
    expect(idsOf(await list(`created_lt=${placedAt[1]}`))).toEqual([ids[0]]);
    const offset = new Date(Date.parse(placedAt[2]!) - 5 * 3600_000).toISOString().replace('.000Z', '-05:00');
    expect(idsOf(await list(`created_gte=${encodeURIComponent(offset)}`))).toEqual([ids[3], ids[2]]);

    // Paging is unchanged: has_more and starting_after within the filter.
    const first = await list('po_number=PO-A&limit=2');
    expect(first.body).toMatchObject({ has_more: true });
    expect(idsOf(first)).toEqual([ids[3], ids[2]]);
    const next = await list(`po_number=PO-A&limit=2&starting_after=${ids[2]}`);
    expect(next.body).toMatchObject({ data: [{ id: ids[0] }], has_more: false });
    const dated = await list(`created_gte=${placedAt[0]}&limit=3`);
    expect(dated.body.has_more).toBe(true);
    expect(idsOf(await list(`created_gte=${placedAt[0]}&limit=4`))).toHaveLength(4);
    expect((await list(`created_gte=${placedAt[0]}&limit=4`)).body.has_more).toBe(false);

    // Bad values: 400 with details; unknown parameters stay ignored.
    for (const [query, path] of [
      ['created_gte=yesterday', 'created_gte'],
      ['created_lt=2026-11-01', 'created_lt'],
      [`created_gte=${placedAt[2]}&created_lt=${placedAt[1]}`, 'created_lt'],
      ['po_number=', 'po_number'],
      [`po_number=${'P'.repeat(65)}`, 'po_number'],
      ['internal_user_id=%20', 'internal_user_id'],
    ]) {
      const refused = await list(query!);
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: [path] }] });
    }
    expect(idsOf(await list('po_numbr=PO-B'))).toHaveLength(4);

    // Another partner's organization of the same name lists none of them, filters or not.
    const other = await anOrderingPartner(stack, receiver, aSetupBody({ internalOrgId: org }));
    const theirs = await get(`/v1/orders?internal_org_id=${org}&po_number=PO-A`, other.bearer);
    expect(theirs.body).toEqual({ data: [], has_more: false });
  });

  it('never lists another partner’s organization, even with the same internal_org_id', async () => {
    const owner = await anOrderingPartner(stack, receiver);
    await placeOrder(owner);
    const org = owner.buyer.organization.internalOrgId;
    const other = await anOrderingPartner(stack, receiver, aSetupBody({ internalOrgId: org }));
    const listed = await get(`/v1/orders?internal_org_id=${org}`, other.bearer);
    expect(listed.body).toEqual({ data: [], has_more: false });
  });
});

describe('the sandbox routes on production', () => {
  it('do not exist: the stage’s routes leave them out, and the function itself answers 404 for them', async () => {
    expect(routesOn('production').some((route) => route.path.includes('/sandbox/'))).toBe(false);
    const production = {
      ...stack.deps.functions.ordersApi,
      config: { ...stack.deps.functions.ordersApi.config, STAGE: 'production' as const },
    };
    const handler = createOrdersApiHandler(() => Promise.resolve(production));
    const partner = await anOrderingPartner(stack, receiver);
    const event = (routeKey: string, path: string) =>
      ({
        version: '2.0',
        routeKey,
        rawPath: path,
        rawQueryString: '',
        headers: { authorization: `Bearer ${partner.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-010')] }),
        isBase64Encoded: false,
        requestContext: { requestId: randomUUID(), http: { method: 'POST', path, sourceIp: '127.0.0.1' } },
      }) as never;
    const answer = await handler(event('POST /v1/sandbox/orders', '/v1/sandbox/orders'), {} as never);
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body as string)).toEqual({ message: 'Not Found' });
    const listed = await get(`/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}`, partner.bearer);
    expect(listed.body.data).toEqual([]);
  });
});
