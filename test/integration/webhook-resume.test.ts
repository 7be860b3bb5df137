import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { deliveriesList } from '../../lib/ops-cli/delivery-commands';
import { orderEventPublish } from '../../lib/ops-cli/order-event-commands';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aPartnerWithOrganization, orderCreatedData, purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let sent: SentMessage[];
let receiver: WebhookReceiver | undefined;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: '60' } });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receiver?.close();
});
afterAll(() => stack.close());

describe('resuming pending deliveries after the queue lost its messages (an npm start restart)', () => {
  it('queues the due retry again, and the delivery ends delivered exactly once', async () => {
    let healthy = false;
    receiver = await startWebhookReceiver(() => (healthy ? 200 : 503));
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
    await orderEventPublish(stack.deps, {
      partner: partnerId,
      event: 'order.created',
      data: JSON.stringify(orderCreatedData(internalOrgId)),
    });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    await stack.consumers.webhookDeliveries.pollOnce(); // first attempt fails, retry queued
    expect((await deliveriesList(stack.deps, { partner: partnerId, status: 'pending' })).deliveries).toMatchObject([
      { attemptCount: 1 },
    ]);

    await purgeQueues(stack); // what a restart of the in-memory SQS stand-in does
    healthy = true;
    stack.clock.advance(60_000);
    expect(await stack.deps.webhookAdmin.resumePending(partnerId as PartnerId)).toBe(1);
    const queued = sent.filter((m) => m.queueUrl === stack.queueUrls.webhookDeliveries).at(-1);
    expect(queued?.delaySeconds).toBe(0);
    await stack.consumers.webhookDeliveries.pollOnce();

    const [delivery] = (await deliveriesList(stack.deps, { partner: partnerId })).deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(receiver.requests.map((r) => r.headers['x-service-delivery-id'])).toEqual([
      delivery!.deliveryId,
      delivery!.deliveryId,
    ]);
  });

  it('after a restart with another ladder, the next attempt keeps its recorded time and later retries follow the new ladder', async () => {
    receiver = await startWebhookReceiver(() => 503);
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
    await orderEventPublish(stack.deps, {
      partner: partnerId,
      event: 'order.created',
      data: JSON.stringify(orderCreatedData(internalOrgId)),
    });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    await stack.consumers.webhookDeliveries.pollOnce(); // attempt 1 fails: attempt 2 is due in 60 s (this stack's ladder)
    const [waiting] = (await deliveriesList(stack.deps, { partner: partnerId, status: 'pending' })).deliveries;
    const recordedAt = new Date(stack.clock.now().getTime() + 60_000).toISOString();
    expect(waiting).toMatchObject({ attemptCount: 1, nextAttemptAt: recordedAt });
    await purgeQueues(stack);

    // `npm start` again, on the same data, with WEBHOOK_RETRY_DELAYS_S=5,5.
    const restarted = await startTestStack({
      resourcePrefix: stack.config.RESOURCE_PREFIX,
      queuePollers: false,
      extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: '5,5' },
    });
    recordSqsDelays(restarted.deps.aws.sqs); // a not-due message comes back at once; the clock decides
    try {
      restarted.clock.set(stack.clock.now());
      expect(await restarted.deps.webhookAdmin.resumePending(partnerId as PartnerId)).toBe(1);
      await restarted.consumers.webhookDeliveries.pollOnce(); // not due yet: the recorded time stands
      expect((await deliveriesList(restarted.deps, { partner: partnerId })).deliveries[0]).toMatchObject({
        attemptCount: 1,
        nextAttemptAt: recordedAt,
      });

      restarted.clock.advance(60_000);
      while ((await restarted.consumers.webhookDeliveries.pollOnce()).received > 0 && receiver.requests.length < 2);
      const [retried] = (await deliveriesList(restarted.deps, { partner: partnerId })).deliveries;
      expect(retried).toMatchObject({
        status: 'pending',
        attemptCount: 2,
        nextAttemptAt: new Date(restarted.clock.now().getTime() + 5_000).toISOString(),
      });
    } finally {
      await purgeQueues(restarted);
      await restarted.close();
    }
  });

  it('records one attempt when the original message is still queued; a duplicate POST carries the same delivery id and bytes', async () => {
    receiver = await startWebhookReceiver(() => 200);
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
    await orderEventPublish(stack.deps, {
      partner: partnerId,
      event: 'order.created',
      data: JSON.stringify(orderCreatedData(internalOrgId)),
    });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);

    expect(await stack.deps.webhookAdmin.resumePending(partnerId as PartnerId)).toBe(1);
    while ((await stack.consumers.webhookDeliveries.pollOnce()).received > 0);

    const [delivery] = (await deliveriesList(stack.deps, { partner: partnerId })).deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(delivery!.attempts).toHaveLength(1);
    // At least once (docs/webhooks.md): receivers de-duplicate by X-Service-Delivery-ID.
    expect(receiver.requests.length).toBeGreaterThanOrEqual(1);
    expect(new Set(receiver.requests.map((r) => r.headers['x-service-delivery-id']))).toEqual(
      new Set([delivery!.deliveryId]),
    );
    expect(new Set(receiver.requests.map((r) => r.rawBody.toString()))).toHaveProperty('size', 1);
  });
});
