/**
 * The order-event → fan-out → dispatch pipeline under a fault at every step, one at a
 * time: each DynamoDB, SQS SendMessage / DeleteMessageBatch and Secrets Manager call
 * fails before it is applied or loses its answer after it was applied (a crash right
 * after the call). The producer retries a failed publish with the same event id, and SQS
 * hands failed messages out again, as in AWS.
 *
 * test/integration/webhooks.test.ts proves single crash points (the record after the
 * POST, the queueing after the fan-out and after a failed attempt); this sweeps every
 * call and asserts the end state each time: exactly one delivery, recorded delivered
 * exactly once, and the receiver saw one or two POSTs of it (at least once, duplicate
 * safe), all with the same delivery id, the same bytes and a valid signature.
 */
import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryId } from '../../functions/webhooks/delivery';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { describeCall, FaultPlan, modesFor, injectAwsFaults, type PlannedCall } from '../support/fault-plan';
import { recordSqsDelays } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aPartnerWithOrganization, orderCreatedData, purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/** The consumers' own receive and visibility calls are Lambda's event source mapping, not the service. */
const plan = new FaultPlan(
  (call: PlannedCall) => !['ReceiveMessage', 'ChangeMessageVisibility', 'PurgeQueue'].includes(call.operation),
);
let stack: TestStack;
let receiver: WebhookReceiver;
/** Receipt handles of the last DeleteMessageBatch, so a failed delete can be made visible again. */
let lastDeleted: { queueUrl: string; handles: string[] } = { queueUrl: '', handles: [] };

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_TIMEOUT_MS: '2000' } });
  recordSqsDelays(stack.deps.aws.sqs);
  const prefix = stack.config.RESOURCE_PREFIX;
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix });
  injectAwsFaults(plan, stack.deps.aws.sqs, { service: 'sqs', prefix });
  injectAwsFaults(plan, stack.deps.aws.secrets, { service: 'secretsmanager', prefix });
  stack.deps.aws.sqs.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'DeleteMessageBatchCommand') {
        const input = args.input as { QueueUrl: string; Entries: { ReceiptHandle: string }[] };
        lastDeleted = { queueUrl: input.QueueUrl, handles: input.Entries.map((e) => e.ReceiptHandle) };
      }
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'rememberDeletes' },
  );
  receiver = await startWebhookReceiver();
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

/** What SQS does once a visibility timeout passes; a message that was deleted after all is simply gone. */
const visibleAgain = (QueueUrl: string, handles: readonly string[]) =>
  Promise.all(
    handles.map((ReceiptHandle) =>
      stack.deps.aws.sqs
        .send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle, VisibilityTimeout: 0 }))
        .catch((error: Error) => {
          if (error.name !== 'MessageNotInflight') throw error;
        }),
    ),
  );

/** The producer: publishes, and retries a failed publish with the same event id. */
async function publishWithRetries(partnerId: string, internalOrgId: string, eventId: string) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await stack.deps.orderEvents.publish({
        partnerId: partnerId as never,
        event: 'order.created',
        data: orderCreatedData(internalOrgId),
        eventId,
      });
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Lambda's SQS event sources, stepped: failed messages come back at once instead of after their visibility timeout. */
async function drain(partnerId: string) {
  const queues = [
    { consumer: stack.consumers.orderEvents, url: stack.queueUrls.orderEvents },
    { consumer: stack.consumers.webhookDeliveries, url: stack.queueUrls.webhookDeliveries },
  ];
  for (let round = 0; round < 30; round += 1) {
    let activity = 0;
    for (const { consumer, url } of queues) {
      try {
        const result = await consumer.pollOnce();
        activity += result.received;
        await plan.outside(() =>
          visibleAgain(
            url,
            result.failed.map((f) => f.receiptHandle),
          ),
        );
      } catch {
        // The handler succeeded but the delete failed: the messages come back.
        activity += 1;
        await plan.outside(() => visibleAgain(lastDeleted.queueUrl, lastDeleted.handles));
      }
    }
    if (activity > 0) continue;
    const [delivery] = await plan.outside(() => stack.deps.webhookAdmin.listDeliveries(partnerId as never));
    if (!delivery || delivery.status !== 'pending') return;
    stack.clock.advance(16 * 60_000); // a scheduled retry becomes due
  }
  throw new Error('the pipeline did not settle');
}

async function runOnce(arm: () => void) {
  const partner = await aPartnerWithOrganization(stack);
  const { generatedSecret } = await stack.deps.webhookAdmin.configureEndpoint({
    partnerId: partner.partnerId,
    url: receiver.url,
  });
  const seenBefore = receiver.requests.length;
  const eventId = randomUUID();
  plan.reset();
  arm();
  try {
    await publishWithRetries(partner.partnerId, partner.internalOrgId, eventId);
    await drain(partner.partnerId);
  } finally {
    plan.disarm();
  }
  const posts = receiver.requests.slice(seenBefore);
  return { partner, secret: generatedSecret as string, posts, calls: [...plan.calls], injected: [...plan.injected] };
}

async function expectDeliveredOnce(run: Awaited<ReturnType<typeof runOnce>>, label: string) {
  const deliveries = await stack.deps.webhookAdmin.listDeliveries(run.partner.partnerId);
  expect(deliveries, label).toHaveLength(1);
  const [delivery] = deliveries;
  const full = await stack.deps.webhookAdmin.getDelivery(delivery?.deliveryId as DeliveryId);
  expect(full, label).toMatchObject({ status: 'delivered', attemptCount: 1 });
  expect(
    full.attempts.filter((a) => a.succeeded),
    label,
  ).toHaveLength(1);
  expect(full.attempts, label).toHaveLength(1);
  expect(run.posts.length, label).toBeGreaterThanOrEqual(1);
  expect(run.posts.length, label).toBeLessThanOrEqual(2);
  for (const post of run.posts) {
    expect(post.headers['x-service-delivery-id'], label).toBe(full.deliveryId);
    expect(post.rawBody.toString('utf8'), label).toBe(full.body);
    expect(verifyWebhookSignature(post.rawBody, post.headers['x-service-signature'], run.secret), label).toBe(true);
  }
}

describe('order webhooks with a fault at every step of the pipeline, one at a time', () => {
  it('publish, fan-out and dispatch: always exactly one delivery, recorded delivered once, received at most twice', async () => {
    const baseline = await runOnce(() => undefined);
    await expectDeliveredOnce(baseline, 'baseline');
    expect(baseline.posts).toHaveLength(1);
    const steps = baseline.calls;
    const names = steps.map(describeCall);
    expect(names).toEqual(
      expect.arrayContaining([
        'sqs:SendMessage(order-events)',
        'sqs:SendMessage(webhook-deliveries)',
        'dynamodb:TransactWriteItems(webhooks)',
        'dynamodb:UpdateItem(webhooks)',
        'secretsmanager:GetSecretValue({id})',
        'sqs:DeleteMessageBatch(webhook-deliveries)',
      ]),
    );

    const outcomes: string[] = [];
    let crashBetweenPostAndRecord = 0;
    for (const [index, step] of steps.entries()) {
      for (const mode of modesFor(step, ['fail', 'lose'])) {
        const label = `step ${index} ${describeCall(step)} ${mode}`;
        const run = await runOnce(() => plan.atStep(index, mode));
        expect(
          run.injected.map((i) => describeCall(i.call)),
          label,
        ).toEqual([describeCall(step)]);
        await expectDeliveredOnce(run, label);
        // The dispatch's last write records the attempt: failing it is the crash between the POST and the state write.
        const isRecord =
          describeCall(step) === 'dynamodb:UpdateItem(webhooks)' && names.lastIndexOf(describeCall(step)) === index;
        if (isRecord && mode === 'fail') {
          crashBetweenPostAndRecord += 1;
          expect(run.posts, `${label}: the receiver got the POST, then its redelivery`).toHaveLength(2);
        }
        outcomes.push(`${index}:${mode}→${run.posts.length}`);
      }
    }
    expect(crashBetweenPostAndRecord).toBe(1);
    console.log(
      `[faults] webhooks: ${steps.length} steps × fail/lose [${names.join(' → ')}] POSTs received ${outcomes.join(' ')}`,
    );
  });
});
