/**
 * The hand-over to the slow path (docs/webhooks.md, "Fast and slow paths") with a consumer
 * killed at each point between the move and the send: the fast consumer after the move but
 * before its own message is deleted (its message comes back and moves again), after the
 * move's write but before the slow path's message is queued, and the slow consumer after it
 * claimed the send but before the POST. Each time the delivery is sent once and recorded once.
 */
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aPartnerWithOrganization, orderCreatedData, purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
/** The next call of this command to this queue fails before it is applied, as when its process is killed first. */
let killBefore: { command: string; queueUrl?: string } | undefined;
/** The receipt handles the killed DeleteMessageBatch was deleting. */
let killedHandles: string[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    queuePollers: false,
    extraEnvironment: { WEBHOOK_TIMEOUT_MS: '4000', WEBHOOK_FAST_PATH_BUDGET_MS: '400' },
  });
  for (const client of [stack.deps.aws.sqs, stack.deps.aws.secrets] as const)
    (client.middlewareStack as typeof stack.deps.aws.sqs.middlewareStack).add(
      (next, context) => async (args) => {
        const input = args.input as { QueueUrl?: string; Entries?: { ReceiptHandle?: string }[] };
        if (
          killBefore &&
          context.commandName === killBefore.command &&
          (!killBefore.queueUrl || input.QueueUrl === killBefore.queueUrl)
        ) {
          killedHandles = (input.Entries ?? []).flatMap((e) => (e.ReceiptHandle ? [e.ReceiptHandle] : []));
          const killed = killBefore;
          killBefore = undefined;
          throw Object.assign(new Error(`killed before ${killed.command}`), { name: 'ProcessKilled' });
        }
        return next(args);
      },
      { step: 'initialize', priority: 'high', name: 'killBefore' },
    );
  receiver = await startWebhookReceiver();
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

/** SQS after the visibility timeout: the killed consumer's messages are handed out again. */
const visibleAgain = (QueueUrl: string, handles: readonly string[]) =>
  Promise.all(
    handles.map((ReceiptHandle) =>
      stack.deps.aws.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle, VisibilityTimeout: 0 })),
    ),
  );

/** A partner whose endpoint is already on the slow path, with one delivery fanned out to it. */
async function aDeliveryToASlowEndpoint() {
  const partner = await aPartnerWithOrganization(stack);
  await stack.deps.webhookAdmin.configureEndpoint({ partnerId: partner.partnerId, url: receiver.url });
  await stack.deps.webhookEndpoints.markSlowPath(partner.partnerId, stack.clock.now(), 'slow in an earlier attempt');
  await stack.deps.orderEvents.publish({
    partnerId: partner.partnerId,
    event: 'order.created',
    data: orderCreatedData(partner.internalOrgId),
  });
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partner.partnerId);
  return { partnerId: partner.partnerId, deliveryId: delivery!.deliveryId };
}

async function sentOnce(partnerId: PartnerId, deliveryId: string) {
  const requests = receiver.requests.filter((r) => r.headers['webhook-id'] === deliveryId);
  expect(requests).toHaveLength(1);
  const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
  expect(delivery).toMatchObject({ deliveryId, status: 'delivered', attemptCount: 1 });
  expect((await stack.deps.webhookAdmin.getDelivery(delivery!.deliveryId)).attempts).toHaveLength(1);
}

const drainSlowPath = async () => {
  while ((await stack.consumers.webhookSlowDeliveries.pollOnce()).received > 0);
};

describe('A consumer killed between the move to the slow path and the send', () => {
  it('sends once when the fast consumer dies after the move, before its own message is deleted', async () => {
    const { partnerId, deliveryId } = await aDeliveryToASlowEndpoint();
    killBefore = { command: 'DeleteMessageBatchCommand', queueUrl: stack.queueUrls.webhookDeliveries };
    await expect(stack.consumers.webhookDeliveries.pollOnce()).rejects.toThrow('killed before');
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === deliveryId)).toHaveLength(0);
    await visibleAgain(stack.queueUrls.webhookDeliveries, killedHandles);
    // The redelivered message moves the attempt again: two copies on the slow path, handled in one batch at once.
    expect((await stack.consumers.webhookDeliveries.pollOnce()).received).toBe(1);
    await drainSlowPath();
    await sentOnce(partnerId, deliveryId);
  });

  it("sends once when the fast consumer dies after the move's write, before the slow path's message is queued", async () => {
    const { partnerId, deliveryId } = await aDeliveryToASlowEndpoint();
    killBefore = { command: 'SendMessageCommand', queueUrl: stack.queueUrls.webhookSlowDeliveries };
    const killed = await stack.consumers.webhookDeliveries.pollOnce();
    expect(killed.failed).toHaveLength(1);
    await drainSlowPath();
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === deliveryId)).toHaveLength(0);
    await visibleAgain(
      stack.queueUrls.webhookDeliveries,
      killed.failed.map((f) => f.receiptHandle),
    );
    expect((await stack.consumers.webhookDeliveries.pollOnce()).received).toBe(1);
    await drainSlowPath();
    await sentOnce(partnerId, deliveryId);
  });

  it('sends once when the slow consumer dies after claiming the send, before the POST', async () => {
    const { partnerId, deliveryId } = await aDeliveryToASlowEndpoint();
    expect((await stack.consumers.webhookDeliveries.pollOnce()).received).toBe(1);
    killBefore = { command: 'GetSecretValueCommand' };
    const killed = await stack.consumers.webhookSlowDeliveries.pollOnce();
    expect(killed.failed).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === deliveryId)).toHaveLength(0);
    // SQS hands the message out again after its visibility timeout (180 s), when the dead consumer's claim has lapsed.
    stack.clock.advance(180_000);
    await visibleAgain(
      stack.queueUrls.webhookSlowDeliveries,
      killed.failed.map((f) => f.receiptHandle),
    );
    await drainSlowPath();
    await sentOnce(partnerId, deliveryId);
  });
});
