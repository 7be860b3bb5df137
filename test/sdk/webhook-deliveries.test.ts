/**
 * The SDK's delivery and endpoint methods against a running local stack: each resolves to
 * the documented body (validated against docs/openapi.json), `webhooks.deliveries.list`
 * walks every page with its filters, and the failures a partner branches on reject with
 * their typed errors.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { PartnerClient, PartnerConflictError, PartnerNotFoundError, PartnerPermissionError } from '../../sdk/src/index';
import { schemaProblems } from '../support/api-document';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aQueuedDelivery, orderCreatedData } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // No pollers: a retried delivery stays pending (in flight) until the test says otherwise.
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

const documented = (schema: string, value: unknown) =>
  schemaProblems({ $ref: `#/components/schemas/${schema}` }, value);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error as Record<string, unknown>,
  );

/** A client of a new partner with an endpoint and `count` delivered deliveries of one order, one second apart. */
async function aClientWithDeliveries(count = 3, options: { scopes?: Parameters<TestStack['createPartner']>[0] } = {}) {
  const partner = await stack.createPartner(options.scopes);
  await webhookSet(stack.deps, { partner: partner.partnerId, url: receiver.url });
  const orderId = randomUUID();
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    stack.clock.advance(1000);
    const at = stack.clock.now().toISOString();
    const body = JSON.stringify({ event: 'order.created', timestamp: at, data: orderCreatedData('acme-1', orderId) });
    const delivery = aQueuedDelivery(partner.partnerId as PartnerId, at, { orderId, body });
    await stack.deps.deliveries.createForEvent(delivery);
    await stack.deps.deliveries.recordAttempt(
      delivery,
      {
        attempt: {
          chain: 1,
          attempt: 1,
          attemptedAt: at,
          url: receiver.url,
          succeeded: true,
          statusCode: 200,
          latencyMs: 9,
        },
        status: 'delivered',
      },
      new Date(at),
    );
    ids.unshift(delivery.deliveryId);
  }
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
  return { client, partner, orderId, ids, asked };
}

describe('PartnerClient webhook delivery methods on the local stack', () => {
  it('webhooks.deliveries.list walks every page newest first, with the filters on each request', async () => {
    const { client, orderId, ids, asked } = await aClientWithDeliveries(3);
    const seen: string[] = [];
    for await (const delivery of client.webhooks.deliveries.list({
      orderId,
      status: 'delivered',
      event: 'order.created',
      since: new Date(0),
      pageSize: 2,
    })) {
      expect(documented('WebhookDeliveryList', { data: [delivery], has_more: false })).toEqual([]);
      seen.push(delivery.id);
    }
    expect(seen).toEqual(ids);
    expect(asked).toHaveLength(2);
    expect(Object.fromEntries(asked[1]!.searchParams)).toEqual({
      order_id: orderId,
      status: 'delivered',
      event: 'order.created',
      since: new Date(0).toISOString(),
      limit: '2',
      starting_after: ids[1],
    });
  });

  it('webhooks.deliveries.retrieve resolves to the documented delivery with its attempts and body', async () => {
    const { client, ids } = await aClientWithDeliveries(1);
    const delivery = await client.webhooks.deliveries.retrieve(ids[0]!);
    expect(documented('WebhookDelivery', delivery)).toEqual([]);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ round: 1, attempt: 1, status_code: 200, succeeded: true }),
    ]);
    expect(JSON.parse(delivery.body).event).toBe('order.created');
  });

  it('webhooks.deliveries.retry queues a new round; a second retry rejects with a ConflictError (DELIVERY_IN_FLIGHT)', async () => {
    const { client, ids } = await aClientWithDeliveries(1);
    const retried = await client.webhooks.deliveries.retry(ids[0]!);
    expect(documented('WebhookDelivery', retried)).toEqual([]);
    expect(retried).toMatchObject({ id: ids[0], status: 'pending', round: 2 });
    const refused = await failureOf(client.webhooks.deliveries.retry(ids[0]!));
    expect(refused).toBeInstanceOf(PartnerConflictError);
    expect(refused).toMatchObject({ status: 409, code: 'DELIVERY_IN_FLIGHT' });
  });

  it("another partner's delivery rejects with a NotFoundError; a key without the scopes with a PermissionError", async () => {
    const { ids } = await aClientWithDeliveries(1);
    const other = await aClientWithDeliveries(0);
    expect(await failureOf(other.client.webhooks.deliveries.retrieve(ids[0]!))).toBeInstanceOf(PartnerNotFoundError);
    expect(await failureOf(other.client.webhooks.deliveries.retry(ids[0]!))).toMatchObject({
      status: 404,
      code: 'DELIVERY_NOT_FOUND',
    });

    const old = await aClientWithDeliveries(0, {
      scopes: { scopes: ['organization:write', 'session:write', 'orders:read', 'orders:write'] },
    });
    expect(await failureOf(old.client.webhooks.endpoint.retrieve())).toBeInstanceOf(PartnerPermissionError);
  });

  it('webhooks.endpoint.retrieve resolves to the documented endpoint; none rejects with a NotFoundError', async () => {
    const { client } = await aClientWithDeliveries(0);
    const endpoint = await client.webhooks.endpoint.retrieve();
    expect(documented('WebhookEndpoint', endpoint)).toEqual([]);
    expect(endpoint).toMatchObject({ url: receiver.url, status: 'active' });

    const { apiKey } = await stack.createPartner();
    const bare = new PartnerClient({ apiKey, baseUrl: stack.url, sleep: async () => {} });
    expect(await failureOf(bare.webhooks.endpoint.retrieve())).toMatchObject({
      status: 404,
      code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
    });
  });
});
