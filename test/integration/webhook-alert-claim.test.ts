/**
 * The failure alert's claim, on DynamoDB Local: the unit tests (test/unit/webhook-dispatcher
 * .test.ts) hold the dispatcher's logic on an in-memory repository; these hold the
 * DynamoDB adapter's conditional claim under a race forced every run, and its lease.
 */
import { FAIRNESS_POLICY } from '../../functions/webhooks/endpoint-circuit';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryRepository } from '../../functions/webhooks/delivery-repository';
import { deliveryRepository } from '../../functions/composition/repositories';
import type { Partner, PartnerId } from '../../functions/domain/partners/partner';
import type { Delivery, DeliveryMessage } from '../../functions/webhooks/delivery';
import { RetrySchedule } from '../../functions/webhooks/retry-schedule';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { WebhookDispatcher } from '../../functions/webhooks/webhook-dispatcher';
import { holdUntilAll } from '../support/arrival-gate';
import { DeliveryBatchReaderOverPorts } from '../support/fakes/delivery-batch-reader-over-ports';
import { InMemorySigningSecrets, InMemoryWebhookEndpoints } from '../support/fakes/in-memory-webhook-endpoints';
import { RecordingLogger, RecordingMailer, RecordingQueue, RecordingTransport } from '../support/fakes/recording-ports';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aQueuedDelivery } from '../support/webhook-fixtures';
import { FAST_PATH_BUDGET_MS } from '../../functions/webhooks/dispatch/dispatch-path';
import { InMemorySlowPathMoves } from '../support/fakes/in-memory-slow-path-moves';

let stack: TestStack;
let deliveries: DeliveryRepository;
let mailer: RecordingMailer;
let dispatcher: WebhookDispatcher;
const partnerId = randomUUID() as PartnerId;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  deliveries = deliveryRepository({ config: stack.config, db: stack.deps.aws.db });
});
afterAll(() => stack.close());

beforeEach(() => {
  mailer = new RecordingMailer();
  const at = stack.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    partnerId,
    url: 'https://partner.example.com/webhooks',
    events: ['order.created'],
    createdAt: at,
    updatedAt: at,
    secretRotatedAt: at,
    status: 'enabled',
    statusSince: at,
  };
  const endpoints = new InMemoryWebhookEndpoints();
  void endpoints.put(endpoint);
  const secrets = new InMemorySigningSecrets();
  void secrets.put(partnerId, { current: 'whsec_unit-test-secret', retiring: [] });
  const partner: Partner = {
    id: partnerId,
    name: 'Acme',
    alertEmail: 'ops@acme.example',
    allowedOrigins: [],
    createdAt: stack.clock.now().toISOString(),
  };
  dispatcher = new WebhookDispatcher({
    deliveries,
    batchReader: new DeliveryBatchReaderOverPorts(deliveries, endpoints),
    endpoints,
    gate: endpoints,
    path: { kind: 'fast', budgetMs: FAST_PATH_BUDGET_MS, slowQueue: new RecordingQueue() },
    slowPathMoves: new InMemorySlowPathMoves(deliveries),
    fairness: FAIRNESS_POLICY,
    attemptLeaseSeconds: 60,
    partners: { getPartner: async () => partner },
    secrets,
    transport: new RecordingTransport(),
    mailer,
    queue: new RecordingQueue<DeliveryMessage>(),
    schedule: new RetrySchedule([60, 300], () => 0),
    disableAfterSeconds: 5 * 24 * 3600,
    clock: stack.clock,
    logger: new RecordingLogger(),
  });
});

/** A delivery whose last attempt failed and whose alert is still to send (as a crash can leave it). */
async function aFailedDelivery(): Promise<Delivery> {
  const now = stack.clock.now().toISOString();
  const delivery = aQueuedDelivery(partnerId, now, { status: 'failed', attemptCount: 3, alertStatus: 'pending' });
  await deliveries.createForEvent(delivery);
  expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ status: 'failed', alertStatus: 'pending' });
  return delivery;
}

const finalMessage = (delivery: Delivery): DeliveryMessage => ({
  deliveryId: delivery.deliveryId,
  chain: delivery.chain,
  attempt: delivery.attemptCount,
  dueAt: stack.clock.now().toISOString(),
});

/** One Lambda invocation with one message. */
const handle = (message: DeliveryMessage) => dispatcher.batch([message]).dispatch(message);

describe('the failure alert on DynamoDB Local', () => {
  it('is sent once when two copies of the final message are handled at the same moment', async () => {
    const delivery = await aFailedDelivery();
    // Both claims wait until both are there, so both read "pending" before either writes.
    const gate = holdUntilAll(
      stack.deps.aws.db,
      2,
      ({ name, input }) =>
        /^Update(Item)?Command$/.test(name) &&
        String(input.ConditionExpression).includes('alertStatus = :pending') &&
        JSON.stringify(input.Key).includes(delivery.deliveryId),
    );
    const outcomes = await Promise.allSettled([handle(finalMessage(delivery)), handle(finalMessage(delivery))]).finally(
      () => gate.remove(),
    );

    expect(gate.arrived()).toBe(2);
    expect(mailer.sent).toHaveLength(1);
    // The winner sends; the loser finds the alert claimed (its message fails, to come back later) or already sent.
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/being sent by another handler/);
    }
    expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ alertStatus: 'sent' });

    // The loser's redelivery finds the alert sent: nothing more.
    await handle(finalMessage(delivery));
    expect(mailer.sent).toHaveLength(1);
  });

  it('is sent after the lease when the handler that claimed it crashed before sending', async () => {
    const delivery = await aFailedDelivery();
    const now = stack.clock.now();
    expect(await deliveries.claimAlert(delivery.deliveryId, now, new Date(now.getTime() + 60_000))).toBe(true); // and then it died

    await expect(handle(finalMessage(delivery))).rejects.toThrow(/being sent by another handler/);
    expect(mailer.sent).toEqual([]);

    stack.clock.advance(61_000);
    await handle(finalMessage(delivery));
    expect(mailer.sent).toHaveLength(1);
    expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ alertStatus: 'sent' });
  });
});
