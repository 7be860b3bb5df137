/**
 * How to provoke every documented status of the order API's routes (catalog, orders,
 * sandbox orders) on a local test stack, for the contract suite. One partner's orders are
 * driven through the sandbox routes themselves, as a partner's CI would.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { ORDER_TRANSITIONS } from '../../functions/domain/orders/order-lifecycle';
import type { OrderStatus } from '../../functions/domain/orders/order';
import { ORDER_ACTIONS, type OrderAction } from '../../functions/domain/orders/transition-input';
import type { ApiEndpointName } from '../../functions/routes';
import type { FaultySalesTax } from '../support/fault-injection';
import { whileFailing } from '../support/fault-plan';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { exhaustRateLimit } from '../support/rate-limit';
import type { TestResponse, TestStack } from '../support/test-stack';

export type Scenario = readonly [name: string, run: () => Promise<TestResponse>];
export type Scenarios = Record<string, Record<number, Scenario[]>>;

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;

const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://track.example.com/1Z999AA10123456784',
  estimated_delivery: '2036-01-09T17:00:00Z',
};
const INPUT: Record<OrderAction, Record<string, unknown>> = {
  confirm: {},
  ship: SHIPMENT,
  deliver: { signature: 'R. Front Desk' },
  cancel: { reason: 'ordered twice' },
  refund: { amount: 1, reason: 'one box damaged' },
};
/** The actions that lead a new order to each status. */
const PATH_TO: Record<OrderStatus, OrderAction[]> = {
  pending: [],
  confirmed: ['confirm'],
  shipped: ['confirm', 'ship'],
  delivered: ['confirm', 'ship', 'deliver'],
  cancelled: ['cancel'],
  refunded: ['confirm', 'ship', 'deliver', 'refund'],
};

export function orderApiScenarios(stackOf: () => TestStack, salesTax: FaultySalesTax): Scenarios {
  const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

  /** A partner with every scope and one user who can order, in an organization with a default location. */
  async function anOrderingPartner() {
    const stack = stackOf();
    const partner = await stack.createPartner();
    const buyer = await provisionProfile(stack.deps, partner.partnerId, aSetupBody());
    return { ...partner, buyer, headers: bearer(partner.apiKey) };
  }
  type OrderingPartner = Awaited<ReturnType<typeof anOrderingPartner>>;

  const place = (partner: OrderingPartner, body: Record<string, unknown> = {}) =>
    stackOf().post(
      '/v1/sandbox/orders',
      {
        internal_user_id: partner.buyer.profile.internalUserId,
        items: [{ product_id: PRODUCT_ID, quantity: 2 }],
        ...body,
      },
      partner.headers,
    );

  const act = (partner: OrderingPartner, orderId: string, action: OrderAction, body: unknown = INPUT[action]) =>
    stackOf().post(`/v1/sandbox/orders/${orderId}/${action}`, body, partner.headers);

  /** A new order of the partner's, driven to `status` through the sandbox routes. */
  async function anOrder(partner: OrderingPartner, status: OrderStatus = 'pending'): Promise<string> {
    const placed = await place(partner);
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.body.order.id as string;
    for (const action of PATH_TO[status]) expect((await act(partner, orderId, action)).status).toBe(200);
    return orderId;
  }

  /** A key of a new partner with only these scopes. */
  const keyWith = async (...scopes: ('organization:write' | 'session:write' | 'orders:read' | 'orders:write')[]) =>
    bearer((await stackOf().createPartner({ scopes })).apiKey);

  /** The partner's window for `endpoint` used up, so its next request is a 429. */
  async function rateLimited(
    endpoint: ApiEndpointName,
    limit: number,
    send: (partner: OrderingPartner) => Promise<TestResponse>,
  ) {
    const partner = await anOrderingPartner();
    await exhaustRateLimit(stackOf(), partner.partnerId, endpoint, limit);
    return send(partner);
  }

  /** `send` with the storage calls on `table` failing. */
  const withStorageFailing = (table: string, send: () => Promise<TestResponse>) =>
    whileFailing(stackOf(), 'dynamodb', (call) => call.target.split('+').includes(table), send);

  const transitionScenarios = (action: OrderAction): Record<number, Scenario[]> => {
    const { from } = ORDER_TRANSITIONS[action];
    const refused = (Object.keys(PATH_TO) as OrderStatus[]).find((status) => !from.includes(status))!;
    return {
      200: [
        [
          `from ${from[0]}`,
          async () => {
            const partner = await anOrderingPartner();
            return act(partner, await anOrder(partner, from[0]), action);
          },
        ],
      ],
      400: [
        [
          'malformed JSON',
          async () => {
            const partner = await anOrderingPartner();
            return act(partner, await anOrder(partner, from[0]), action, '{');
          },
        ],
        ...(action === 'ship'
          ? ([
              [
                'a tracking_url that is not https',
                async () => {
                  const partner = await anOrderingPartner();
                  return act(partner, await anOrder(partner, 'confirmed'), 'ship', {
                    ...SHIPMENT,
                    tracking_url: 'http://track.example.com/1',
                  });
                },
              ],
            ] as Scenario[])
          : []),
        ...(action === 'refund'
          ? ([
              [
                'more than the total',
                async () => {
                  const partner = await anOrderingPartner();
                  return act(partner, await anOrder(partner, 'delivered'), 'refund', { amount: 99_999 });
                },
              ],
            ] as Scenario[])
          : []),
      ],
      401: [['no key', async () => stackOf().post(`/v1/sandbox/orders/${randomUUID()}/${action}`, INPUT[action])]],
      403: [
        [
          'a key without orders:write',
          async () =>
            stackOf().post(`/v1/sandbox/orders/${randomUUID()}/${action}`, INPUT[action], await keyWith('orders:read')),
        ],
        [
          "another partner's order",
          async () => {
            const owner = await anOrderingPartner();
            const orderId = await anOrder(owner, from[0]);
            return act(await anOrderingPartner(), orderId, action);
          },
        ],
      ],
      404: [
        ['an unknown order', async () => act(await anOrderingPartner(), randomUUID(), action)],
        ['an id that is not a UUID', async () => act(await anOrderingPartner(), 'not-an-order', action)],
      ],
      409: [
        [
          `INVALID_ORDER_TRANSITION from ${refused}`,
          async () => {
            const partner = await anOrderingPartner();
            const response = await act(partner, await anOrder(partner, refused), action);
            expect(response.body.code).toBe('INVALID_ORDER_TRANSITION');
            return response;
          },
        ],
      ],
      429: [
        [
          'over 100 a minute (the five actions together)',
          async () => rateLimited('sandbox-order-transition', 100, (partner) => act(partner, randomUUID(), action)),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await anOrderingPartner();
            const orderId = await anOrder(partner, from[0]);
            return withStorageFailing('orders', () => act(partner, orderId, action));
          },
        ],
      ],
    };
  };

  return {
    'GET /v1/catalog/products': {
      200: [
        ['the active products', async () => stackOf().get('/v1/catalog/products', (await anOrderingPartner()).headers)],
      ],
      401: [
        ['no key', async () => stackOf().get('/v1/catalog/products')],
        [
          'the key in X-API-Key',
          async () => stackOf().get('/v1/catalog/products', { 'X-API-Key': (await anOrderingPartner()).apiKey }),
        ],
      ],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get('/v1/catalog/products', await keyWith('organization:write', 'session:write')),
        ],
      ],
      429: [
        [
          'over 60 a minute',
          async () =>
            rateLimited('catalog-products', 60, (partner) => stackOf().get('/v1/catalog/products', partner.headers)),
        ],
      ],
      500: [
        [
          'the catalog store down',
          async () =>
            withStorageFailing('catalog', async () =>
              stackOf().get('/v1/catalog/products', (await anOrderingPartner()).headers),
            ),
        ],
      ],
    },
    'GET /v1/orders': {
      200: [
        [
          'a first page with more to come',
          async () => {
            const partner = await anOrderingPartner();
            await anOrder(partner);
            await anOrder(partner, 'shipped');
            const response = await stackOf().get(
              `/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}&limit=1`,
              partner.headers,
            );
            expect(response.body.has_more).toBe(true);
            return response;
          },
        ],
        [
          'an organization without orders',
          async () => {
            const partner = await anOrderingPartner();
            return stackOf().get(
              `/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}`,
              partner.headers,
            );
          },
        ],
      ],
      400: [
        [
          'limit out of range',
          async () => {
            const partner = await anOrderingPartner();
            return stackOf().get(
              `/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}&limit=101`,
              partner.headers,
            );
          },
        ],
        ['no internal_org_id', async () => stackOf().get('/v1/orders', (await anOrderingPartner()).headers)],
        [
          'starting_after of another organization',
          async () => {
            const partner = await anOrderingPartner();
            const other = await provisionProfile(stackOf().deps, partner.partnerId, aSetupBody());
            const foreign = await place(partner, { internal_user_id: other.profile.internalUserId });
            return stackOf().get(
              `/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}&starting_after=${foreign.body.order.id}`,
              partner.headers,
            );
          },
        ],
      ],
      401: [['no key', async () => stackOf().get('/v1/orders?internal_org_id=acme-1')]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get('/v1/orders?internal_org_id=acme-1', await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown organization',
          async () => stackOf().get('/v1/orders?internal_org_id=nobody', (await anOrderingPartner()).headers),
        ],
      ],
      429: [
        [
          'over 300 a minute',
          async () =>
            rateLimited('order-list', 300, (partner) =>
              stackOf().get(`/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}`, partner.headers),
            ),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await anOrderingPartner();
            return withStorageFailing('orders', () =>
              stackOf().get(`/v1/orders?internal_org_id=${partner.buyer.organization.internalOrgId}`, partner.headers),
            );
          },
        ],
      ],
    },
    'GET /v1/orders/{order_id}': {
      200: [
        [
          'a pending order',
          async () => {
            const partner = await anOrderingPartner();
            return stackOf().get(`/v1/orders/${await anOrder(partner)}`, partner.headers);
          },
        ],
        [
          'a refunded order, with the fields of every status it reached',
          async () => {
            const partner = await anOrderingPartner();
            return stackOf().get(`/v1/orders/${await anOrder(partner, 'refunded')}`, partner.headers);
          },
        ],
        [
          'a cancelled order',
          async () => {
            const partner = await anOrderingPartner();
            return stackOf().get(`/v1/orders/${await anOrder(partner, 'cancelled')}`, partner.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get(`/v1/orders/${randomUUID()}`)]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get(`/v1/orders/${randomUUID()}`, await keyWith('orders:write')),
        ],
        [
          "another partner's order",
          async () => {
            const orderId = await anOrder(await anOrderingPartner());
            return stackOf().get(`/v1/orders/${orderId}`, (await anOrderingPartner()).headers);
          },
        ],
      ],
      404: [
        [
          'an unknown order',
          async () => stackOf().get(`/v1/orders/${randomUUID()}`, (await anOrderingPartner()).headers),
        ],
        [
          'an id that is not a UUID',
          async () => stackOf().get('/v1/orders/not-an-order', (await anOrderingPartner()).headers),
        ],
      ],
      429: [
        [
          'over 300 a minute',
          async () =>
            rateLimited('order-get', 300, (partner) => stackOf().get(`/v1/orders/${randomUUID()}`, partner.headers)),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await anOrderingPartner();
            const orderId = await anOrder(partner);
            return withStorageFailing('orders', () => stackOf().get(`/v1/orders/${orderId}`, partner.headers));
          },
        ],
      ],
    },
    'POST /v1/sandbox/orders': {
      201: [
        ['by internal_user_id', async () => place(await anOrderingPartner())],
        [
          'by profile_id, to a named location',
          async () => {
            const partner = await anOrderingPartner();
            return place(partner, {
              internal_user_id: undefined,
              profile_id: partner.buyer.profile.id,
              internal_shipping_location_id: 'loc-main',
            });
          },
        ],
      ],
      202: [
        [
          "above the user's order limit: an approval request",
          async () => {
            const partner = await anOrderingPartner();
            await stackOf().deps.functions.setup.partnerUsers.update(
              partner.partnerId,
              partner.buyer.organization.internalOrgId,
              partner.buyer.profile.internalUserId,
              { orderLimit: 100 },
            );
            return place(partner);
          },
        ],
      ],
      400: [
        ['no items', async () => place(await anOrderingPartner(), { items: [] })],
        ['malformed JSON', async () => stackOf().post('/v1/sandbox/orders', '{', (await anOrderingPartner()).headers)],
        [
          'an unknown product',
          async () => place(await anOrderingPartner(), { items: [{ product_id: 'NO-SUCH-SKU', quantity: 1 }] }),
        ],
        [
          'an unknown shipping location',
          async () => place(await anOrderingPartner(), { internal_shipping_location_id: 'loc-9' }),
        ],
        [
          'a disabled user',
          async () => {
            const partner = await anOrderingPartner();
            await stackOf().deps.profileAdmin.disable(partner.partnerId, partner.buyer.profile.id);
            return place(partner);
          },
        ],
      ],
      401: [
        [
          'no key',
          async () =>
            stackOf().post('/v1/sandbox/orders', {
              internal_user_id: 'u-1',
              items: [{ product_id: PRODUCT_ID, quantity: 1 }],
            }),
        ],
      ],
      403: [
        [
          'a key without orders:write',
          async () =>
            stackOf().post(
              '/v1/sandbox/orders',
              { internal_user_id: 'u-1', items: [{ product_id: PRODUCT_ID, quantity: 1 }] },
              await keyWith('orders:read'),
            ),
        ],
        [
          "another partner's profile",
          async () => {
            const owner = await anOrderingPartner();
            return place(await anOrderingPartner(), {
              internal_user_id: undefined,
              profile_id: owner.buyer.profile.id,
            });
          },
        ],
      ],
      404: [['an unknown user', async () => place(await anOrderingPartner(), { internal_user_id: 'nobody' })]],
      429: [['over 100 a minute', async () => rateLimited('sandbox-order-create', 100, (partner) => place(partner))]],
      500: [
        [
          'the order store down',
          async () => {
            const partner = await anOrderingPartner();
            return withStorageFailing('orders', () => place(partner));
          },
        ],
      ],
      503: [
        [
          'Stripe Tax down',
          async () => {
            const partner = await anOrderingPartner();
            salesTax.failNextCall();
            return place(partner);
          },
        ],
      ],
    },
    ...Object.fromEntries(
      ORDER_ACTIONS.map((action) => [`POST /v1/sandbox/orders/{order_id}/${action}`, transitionScenarios(action)]),
    ),
  };
}
