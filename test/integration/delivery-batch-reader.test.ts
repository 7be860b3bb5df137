/**
 * The dispatcher's batch read on DynamoDB Local: a batch's deliveries (webhooks table) and
 * its partners' endpoints (partners table) come back from one BatchGetItem, as stored.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveryBatchReader,
  deliveryRepository,
  webhookEndpointRepository,
} from '../../functions/composition/repositories';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { Delivery, DeliveryId } from '../../functions/webhooks/delivery';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { meterCapacity } from '../../bench/capacity';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aQueuedDelivery } from '../support/webhook-fixtures';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
});
afterAll(() => stack.close());

const tables = () => ({ config: stack.config, db: stack.deps.aws.db });

async function aDelivery(partnerId: PartnerId): Promise<Delivery> {
  const delivery = aQueuedDelivery(partnerId, stack.clock.now().toISOString(), {
    body: `{"event":"order.created","n":"${randomUUID()}"}`,
  });
  await deliveryRepository(tables()).createForEvent(delivery);
  return delivery;
}

async function anEndpoint(partnerId: PartnerId): Promise<WebhookEndpoint> {
  const now = stack.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    partnerId,
    url: `https://${partnerId}.example.com/webhooks`,
    events: ['order.created'],
    createdAt: now,
    updatedAt: now,
    secretRotatedAt: now,
    status: 'paused',
    statusSince: now,
  };
  await webhookEndpointRepository(tables()).put(endpoint);
  return endpoint;
}

describe('the delivery batch reader on DynamoDB Local', () => {
  it("reads a batch's deliveries and its partners' endpoints in one BatchGetItem, leaving out what is not stored", async () => {
    const [withEndpoint, withoutEndpoint] = [randomUUID(), randomUUID()] as PartnerId[] as [PartnerId, PartnerId];
    const endpoint = await anEndpoint(withEndpoint);
    const stored = [await aDelivery(withEndpoint), await aDelivery(withEndpoint), await aDelivery(withoutEndpoint)];
    const missing = randomUUID() as DeliveryId;

    const meter = meterCapacity(stack.deps.aws.db);
    const snapshot = await deliveryBatchReader(tables()).read(
      [...stored.map((d) => d.deliveryId), missing],
      [withEndpoint, withoutEndpoint],
    );
    const calls = meter.take().calls;
    meter.stop();

    expect(calls).toEqual({ BatchGetItem: 1 });
    expect([...snapshot.deliveries.values()].sort((a, b) => a.deliveryId.localeCompare(b.deliveryId))).toEqual(
      [...stored].sort((a, b) => a.deliveryId.localeCompare(b.deliveryId)),
    );
    expect(snapshot.deliveries.has(missing)).toBe(false);
    expect([...snapshot.endpoints.entries()]).toEqual([[withEndpoint, endpoint]]);
  });
});
