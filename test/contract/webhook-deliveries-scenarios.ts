/**
 * How to provoke every documented status of a partner's webhook routes (its deliveries,
 * their retry, its endpoint) on a local test stack, for the contract suite. Deliveries are
 * stored as the fan-out stores them, in the state a scenario needs.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerId, Scope } from '../../functions/domain/partners/partner';
import type { DeliveryAttempt } from '../../functions/webhooks/delivery';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { whileFailing, type PlannedCall } from '../support/fault-plan';
import { exhaustRateLimit } from '../support/rate-limit';
import type { TestResponse, TestStack } from '../support/test-stack';
import { aQueuedDelivery, orderCreatedData } from '../support/webhook-fixtures';
import type { Scenarios } from './order-api-scenarios';

const LIST = 'GET /v1/webhooks/deliveries';
const GET = 'GET /v1/webhooks/deliveries/{delivery_id}';
const RETRY = 'POST /v1/webhooks/deliveries/{delivery_id}/retry';
const ENDPOINT = 'GET /v1/webhooks/endpoint';

/** The scopes keys had by default before the webhook scopes existed. */
const OLD_DEFAULT_SCOPES: Scope[] = ['organization:write', 'session:write', 'orders:read', 'orders:write'];

export function webhookDeliveriesScenarios(stackOf: () => TestStack, receiverUrl: () => string): Scenarios {
  const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

  /** A partner with every scope, an endpoint, and one delivery in `status` with an attempt. */
  async function aPartnerWithDelivery(
    status: 'delivered' | 'pending' | 'failed' = 'delivered',
    options: { endpoint?: boolean } = {},
  ) {
    const stack = stackOf();
    const partner = await stack.createPartner();
    if (options.endpoint !== false) await webhookSet(stack.deps, { partner: partner.partnerId, url: receiverUrl() });
    const at = stack.clock.now().toISOString();
    const orderId = randomUUID();
    const body = JSON.stringify({ event: 'order.created', timestamp: at, data: orderCreatedData('acme-1', orderId) });
    const delivery = aQueuedDelivery(partner.partnerId as PartnerId, at, { orderId, body });
    await stack.deps.deliveries.createForEvent(delivery);
    if (status !== 'pending') {
      const attempt: DeliveryAttempt = {
        chain: 1,
        attempt: 1,
        attemptedAt: at,
        url: receiverUrl(),
        succeeded: status === 'delivered',
        statusCode: status === 'delivered' ? 200 : 410,
        latencyMs: 12,
      };
      await stack.deps.deliveries.recordAttempt(delivery, { attempt, status }, new Date(at));
    }
    return { ...partner, deliveryId: delivery.deliveryId, headers: bearer(partner.apiKey) };
  }

  const keyWith = async (scopes: Scope[]) => bearer((await stackOf().createPartner({ scopes })).apiKey);

  async function rateLimited(
    endpoint: Parameters<typeof exhaustRateLimit>[2],
    limit: number,
    send: (partner: Awaited<ReturnType<typeof aPartnerWithDelivery>>) => Promise<TestResponse>,
  ) {
    const partner = await aPartnerWithDelivery();
    await exhaustRateLimit(stackOf(), partner.partnerId, endpoint, limit);
    return send(partner);
  }

  /** The request with the DynamoDB calls that `matches` failing once its rate limit was counted. */
  function withFailingCall(matches: (call: PlannedCall) => boolean, send: () => Promise<TestResponse>) {
    let counted = false;
    return whileFailing(
      stackOf(),
      'dynamodb',
      (call) => {
        if (call.target === 'rate-limits') counted = true;
        return counted && matches(call);
      },
      send,
    );
  }

  const list = (headers: Record<string, string>, query = '') =>
    stackOf().get(`/v1/webhooks/deliveries${query}`, headers);
  const get = (headers: Record<string, string>, id: string) => stackOf().get(`/v1/webhooks/deliveries/${id}`, headers);
  const retry = (headers: Record<string, string>, id: string) =>
    stackOf().post(`/v1/webhooks/deliveries/${id}/retry`, '', headers);
  const endpoint = (headers: Record<string, string>) => stackOf().get('/v1/webhooks/endpoint', headers);

  return {
    [LIST]: {
      200: [
        ['a page of deliveries', async () => list((await aPartnerWithDelivery()).headers)],
        [
          'filtered to nothing',
          async () => list((await aPartnerWithDelivery()).headers, '?status=failed&event=order.shipped'),
        ],
      ],
      400: [
        ['an unknown status', async () => list((await aPartnerWithDelivery()).headers, '?status=lost')],
        [
          'a cursor of another partner',
          async () =>
            list(
              (await aPartnerWithDelivery()).headers,
              `?starting_after=${(await aPartnerWithDelivery()).deliveryId}`,
            ),
        ],
      ],
      401: [
        ['no key', async () => stackOf().get('/v1/webhooks/deliveries')],
        ['the key in X-API-Key', async () => list({ 'X-API-Key': (await stackOf().createPartner()).apiKey })],
      ],
      403: [['a key issued before webhooks:read existed', async () => list(await keyWith(OLD_DEFAULT_SCOPES))]],
      429: [
        [
          'over 300 a minute',
          async () => rateLimited('webhook-delivery-list', 300, (partner) => list(partner.headers)),
        ],
      ],
      500: [
        [
          'the deliveries table down',
          async () => {
            const partner = await aPartnerWithDelivery();
            return withFailingCall(
              (call) => call.operation === 'Query' && call.target === 'webhooks',
              () => list(partner.headers),
            );
          },
        ],
      ],
    },
    [GET]: {
      200: [
        [
          'a delivered delivery',
          async () => {
            const partner = await aPartnerWithDelivery();
            return get(partner.headers, partner.deliveryId);
          },
        ],
        [
          'a pending delivery',
          async () => {
            const partner = await aPartnerWithDelivery('pending');
            return get(partner.headers, partner.deliveryId);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get(`/v1/webhooks/deliveries/${randomUUID()}`)]],
      403: [['a key without webhooks:read', async () => get(await keyWith(['webhooks:write']), randomUUID())]],
      404: [
        [
          "another partner's delivery",
          async () => get((await aPartnerWithDelivery()).headers, (await aPartnerWithDelivery()).deliveryId),
        ],
        ['not a UUID', async () => get((await aPartnerWithDelivery()).headers, 'not-a-delivery')],
      ],
      429: [
        [
          'over 300 a minute',
          async () => rateLimited('webhook-delivery-get', 300, (partner) => get(partner.headers, partner.deliveryId)),
        ],
      ],
      500: [
        [
          'the deliveries table down',
          async () => {
            const partner = await aPartnerWithDelivery();
            return withFailingCall(
              (call) => call.operation === 'GetItem' && call.target === 'webhooks',
              () => get(partner.headers, partner.deliveryId),
            );
          },
        ],
      ],
    },
    [RETRY]: {
      202: [
        [
          'a delivered delivery',
          async () => {
            const partner = await aPartnerWithDelivery();
            return retry(partner.headers, partner.deliveryId);
          },
        ],
        [
          'a failed delivery',
          async () => {
            const partner = await aPartnerWithDelivery('failed');
            return retry(partner.headers, partner.deliveryId);
          },
        ],
      ],
      401: [['no key', async () => stackOf().post(`/v1/webhooks/deliveries/${randomUUID()}/retry`, '')]],
      403: [
        ['a key with webhooks:read only', async () => retry(await keyWith(['webhooks:read']), randomUUID())],
        [
          'a key issued before webhooks:write existed',
          async () => retry(await keyWith(OLD_DEFAULT_SCOPES), randomUUID()),
        ],
      ],
      404: [
        [
          "another partner's delivery",
          async () => retry((await aPartnerWithDelivery()).headers, (await aPartnerWithDelivery()).deliveryId),
        ],
      ],
      409: [
        [
          'a pending delivery',
          async () => {
            const partner = await aPartnerWithDelivery('pending');
            return retry(partner.headers, partner.deliveryId);
          },
        ],
        [
          'no webhook endpoint',
          async () => {
            const partner = await aPartnerWithDelivery('delivered', { endpoint: false });
            return retry(partner.headers, partner.deliveryId);
          },
        ],
      ],
      429: [
        [
          'over 60 a minute',
          async () =>
            rateLimited('webhook-delivery-retry', 60, (partner) => retry(partner.headers, partner.deliveryId)),
        ],
      ],
      500: [
        [
          'the deliveries table down',
          async () => {
            const partner = await aPartnerWithDelivery();
            return withFailingCall(
              (call) => call.operation === 'GetItem' && call.target === 'webhooks',
              () => retry(partner.headers, partner.deliveryId),
            );
          },
        ],
      ],
    },
    [ENDPOINT]: {
      200: [['an active endpoint', async () => endpoint((await aPartnerWithDelivery()).headers)]],
      401: [['no key', async () => stackOf().get('/v1/webhooks/endpoint')]],
      403: [['a key issued before webhooks:read existed', async () => endpoint(await keyWith(OLD_DEFAULT_SCOPES))]],
      404: [['no webhook endpoint', async () => endpoint(bearer((await stackOf().createPartner()).apiKey))]],
      429: [
        [
          'over 300 a minute',
          async () => rateLimited('webhook-endpoint-get', 300, (partner) => endpoint(partner.headers)),
        ],
      ],
      500: [
        [
          'the partners table down',
          async () => {
            const partner = await aPartnerWithDelivery();
            return withFailingCall(
              (call) => call.operation === 'GetItem' && call.target === 'partners',
              () => endpoint(partner.headers),
            );
          },
        ],
      ],
    },
  };
}
