import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryId } from '../../functions/webhooks/delivery';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { createWebhookDispatchHandler } from '../../functions/lambdas/webhook-dispatch';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { freePort } from '../../lib/local-runtime/free-port';
import { emailsTo } from '../support/ses-outbox';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { receiverPool } from '../support/webhook-receiver';
import { aPartnerWithOrganization, orderCreatedData, orderShippedData, purgeQueues } from '../support/webhook-fixtures';

const TIMEOUT_MS = 200;

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

const receiver = receivers.start;

/** A partner whose webhook points at `url`, subscribed to `events` (all when absent); returns its secret. */
async function aSubscribedPartner(url: string, events?: string[]) {
  const partner = await aPartnerWithOrganization(stack);
  const configured = await stack.deps.webhookAdmin.configureEndpoint({ partnerId: partner.partnerId, url, events });
  return { ...partner, secret: configured.generatedSecret as string };
}

const deliveriesSent = () => sent.filter((m) => m.queueUrl === stack.queueUrls.webhookDeliveries);
const lastDeliveryMessage = () => deliveriesSent().at(-1) as SentMessage;

async function publishAndFanOut(partnerId: PartnerId, event: string, data: unknown, eventId?: string) {
  const published = await stack.deps.orderEvents.publish({ partnerId, event, data, eventId });
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  return published;
}

/** One receive-and-handle of the deliveries queue, as one Lambda invocation. */
const dispatchOnce = () => stack.consumers.webhookDeliveries.pollOnce();

/**
 * Plays SQS's part with the ManualClock: handles the visible message, then lets the
 * DelaySeconds of whatever the dispatcher sent pass, until nothing is left.
 */
async function runUntilSettled(receiverSeen: () => number) {
  const steps: { delaySeconds: number; dueAt: string; attempted: boolean }[] = [];
  for (;;) {
    const before = deliveriesSent().length;
    const requestsBefore = receiverSeen();
    const { received } = await dispatchOnce();
    if (received === 0) return steps;
    const next = deliveriesSent().length > before ? lastDeliveryMessage() : undefined;
    if (!next) return steps;
    steps.push({ delaySeconds: next.delaySeconds, dueAt: next.body.dueAt, attempted: receiverSeen() > requestsBefore });
    stack.clock.advance(next.delaySeconds * 1000);
  }
}

/** Makes the next SendMessage to `queueUrl` fail, as a crash or an SQS outage would. */
function failNextSendTo(queueUrl: string) {
  let armed = true;
  stack.deps.aws.sqs.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { QueueUrl?: string };
      if (armed && context.commandName === 'SendMessageCommand' && input.QueueUrl === queueUrl) {
        armed = false;
        throw Object.assign(new Error('simulated SQS outage'), { name: 'ServiceUnavailable' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'failNextSend', priority: 'high' },
  );
  return () => stack.deps.aws.sqs.middlewareStack.remove('failNextSend');
}

const makeVisibleAgain = (queueUrl: string, receiptHandle: string) =>
  stack.deps.aws.sqs.send(
    new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: 0 }),
  );

describe('delivering an order webhook', () => {
  it('POSTs the frozen body with the contract headers, and the receiver verifies the signature', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId, secret } = await aSubscribedPartner(partnerReceiver.url);
    const data = orderCreatedData(internalOrgId);

    await publishAndFanOut(partnerId, 'order.created', data);
    const queued = lastDeliveryMessage().body;
    await dispatchOnce();

    expect(partnerReceiver.requests).toHaveLength(1);
    const [request] = partnerReceiver.requests;
    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    // The first attempt's message names its delivery; the dispatcher reads what it sends from the delivery.
    expect(queued).toEqual({
      deliveryId: delivery?.deliveryId,
      partnerId,
      chain: 1,
      attempt: 1,
      dueAt: delivery?.createdAt,
    });
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-service-event']).toBe('order.created');
    expect(request?.headers['x-service-delivery-id']).toBe(delivery?.deliveryId);
    expect(request?.headers['x-service-timestamp']).toBe(String(Math.floor(stack.clock.now().getTime() / 1000)));
    expect(request?.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], secret)).toBe(true);
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], `${secret}x`)).toBe(false);
    expect(JSON.parse(request!.rawBody.toString('utf8'))).toEqual({
      event: 'order.created',
      timestamp: stack.clock.now().toISOString(),
      // The fan-out adds the order's invoice as the webhook leaves: none yet.
      data: { ...data, invoice: null },
    });
    expect(request!.rawBody.toString('utf8')).toBe(delivery?.body);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 1, event: 'order.created' });
    expect(delivery?.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        chain: 1,
        succeeded: true,
        statusCode: 200,
        url: partnerReceiver.url,
        responseBody: 'answer 200 to request 0',
      }),
    ]);
  });

  it('retries a receiver that fails twice with the same delivery id and body bytes, and ends delivered after three attempts', async () => {
    const partnerReceiver = await receiver((n) => [500, 503][n] ?? 200);
    const { partnerId, internalOrgId, secret } = await aSubscribedPartner(partnerReceiver.url);
    const start = stack.clock.now().getTime();
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));

    const steps = await runUntilSettled(() => partnerReceiver.requests.length);

    expect(steps).toEqual([
      { delaySeconds: 60, dueAt: new Date(start + 60_000).toISOString(), attempted: true },
      { delaySeconds: 300, dueAt: new Date(start + 360_000).toISOString(), attempted: true },
    ]);
    const requests = partnerReceiver.requests;
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery-id'])).size).toBe(1);
    expect(requests[1]!.rawBody.equals(requests[0]!.rawBody)).toBe(true);
    expect(requests[2]!.rawBody.equals(requests[0]!.rawBody)).toBe(true);
    expect(requests.map((r) => Number(r.headers['x-service-timestamp']) - start / 1000)).toEqual([0, 60, 360]);
    for (const r of requests)
      expect(verifyWebhookSignature(r.rawBody, r.headers['x-service-signature'], secret)).toBe(true);

    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 3 });
    expect(delivery?.attempts.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    expect(delivery?.attempts[0]?.responseBody).toBe('answer 500 to request 0');
    expect(await emailsTo((await stack.deps.partners.getPartner(partnerId))!.alertEmail!)).toEqual([]);
  });

  it('gives up after the sixth retry (seven attempts, 1m 5m 15m 1h 6h 24h apart) and e-mails exactly one alert', async () => {
    const partnerReceiver = await receiver(() => 500);
    const { partnerId, internalOrgId, alertEmail } = await aSubscribedPartner(partnerReceiver.url);
    const start = stack.clock.now().getTime();
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));

    const steps = await runUntilSettled(() => partnerReceiver.requests.length);

    // SQS delays stop at 900 s: the 1 h, 6 h and 24 h waits are hops of 900 s, with no attempt before the due time.
    const hopsTo = (dueAfterSeconds: number) =>
      steps.filter((s) => s.dueAt === new Date(start + dueAfterSeconds * 1000).toISOString());
    const due = [60, 360, 1260, 4860, 26460, 112860];
    expect(hopsTo(due[0]!).map((s) => s.delaySeconds)).toEqual([60]);
    expect(hopsTo(due[1]!).map((s) => s.delaySeconds)).toEqual([300]);
    expect(hopsTo(due[2]!).map((s) => s.delaySeconds)).toEqual([900]);
    expect(hopsTo(due[3]!).map((s) => s.delaySeconds)).toEqual(Array(4).fill(900));
    expect(hopsTo(due[4]!).map((s) => s.delaySeconds)).toEqual(Array(24).fill(900));
    expect(hopsTo(due[5]!).map((s) => s.delaySeconds)).toEqual(Array(96).fill(900));
    expect(steps.filter((s) => s.attempted)).toHaveLength(6);
    expect(steps).toHaveLength(1 + 1 + 1 + 4 + 24 + 96);
    expect(partnerReceiver.requests.map((r) => Number(r.headers['x-service-timestamp']) - start / 1000)).toEqual([
      0,
      ...due,
    ]);

    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId, { status: 'failed' });
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 7, alertStatus: 'sent' });
    expect(delivery?.attempts).toHaveLength(7);

    const emails = await emailsTo(alertEmail);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.from).toBe(stack.config.ALERT_SENDER_EMAIL);
    expect(emails[0]?.subject).toContain(delivery!.deliveryId);
    expect(emails[0]?.body.text).toContain('order.created');
    expect(emails[0]?.body.text).toContain(delivery!.deliveryId);
    expect(emails[0]?.body.text).toContain(partnerReceiver.url);
    expect(emails[0]?.body.text).toContain('HTTP 500');

    // SQS delivers at least once: the final attempt's message handled again changes nothing and alerts no one twice.
    const finalMessage = deliveriesSent()
      .filter((m) => m.body.deliveryId === delivery!.deliveryId && m.body.attempt === 7)
      .at(-1)!;
    await stack.deps.aws.sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.queueUrls.webhookDeliveries,
        MessageBody: JSON.stringify(finalMessage.body),
      }),
    );
    expect((await dispatchOnce()).received).toBe(1);
    expect(partnerReceiver.requests).toHaveLength(7);
    expect(await emailsTo(alertEmail)).toHaveLength(1);
    expect((await stack.deps.webhookAdmin.getDelivery(delivery!.deliveryId)).attempts).toHaveLength(7);
  });

  it('makes no attempt before the retry is due, whatever SQS does', async () => {
    const partnerReceiver = await receiver((n) => (n === 0 ? 500 : 200));
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    await dispatchOnce();
    const retry = lastDeliveryMessage();

    stack.clock.advance(45_000); // the message shows up 15 s early
    await dispatchOnce();
    expect(partnerReceiver.requests).toHaveLength(1);
    expect(lastDeliveryMessage()).toMatchObject({ delaySeconds: 15, body: retry.body });

    stack.clock.advance(15_000);
    await dispatchOnce();
    expect(partnerReceiver.requests).toHaveLength(2);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const partnerReceiver = await receiver((n) => (n === 0 ? 'hang' : 200));
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));

    await runUntilSettled(() => partnerReceiver.requests.length);

    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(delivery?.attempts[0]).toMatchObject({ succeeded: false, error: `timed out after ${TIMEOUT_MS} ms` });
    expect(delivery?.attempts[0]?.statusCode).toBeUndefined();
  });

  it('counts a refused connection as a failed attempt and schedules the first retry a minute later', async () => {
    const closedPort = await freePort();
    const { partnerId, internalOrgId } = await aSubscribedPartner(`http://127.0.0.1:${closedPort}/hooks`);
    const attemptAt = stack.clock.now().getTime();
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    await dispatchOnce();

    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId, { status: 'pending' });
    expect(delivery).toMatchObject({
      status: 'pending',
      attemptCount: 1,
      nextAttemptAt: new Date(attemptAt + 60_000).toISOString(),
    });
    expect(delivery?.attempts[0]).toMatchObject({ succeeded: false, error: 'connection refused' });
    expect(lastDeliveryMessage()).toMatchObject({
      delaySeconds: 60,
      body: { attempt: 2, deliveryId: delivery?.deliveryId },
    });
    expect(
      stack.logs.filter((line) => line.deliveryId === delivery?.deliveryId && line.outcome === 'retry-scheduled'),
    ).toEqual([
      expect.objectContaining({
        msg: 'webhook attempt failed, retry scheduled',
        nextAttemptAt: delivery?.nextAttemptAt,
      }),
    ]);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const target = await receiver();
    const redirecting = await receiver(() => 307);
    const { partnerId, internalOrgId } = await aSubscribedPartner(redirecting.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    await dispatchOnce();

    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(delivery?.attempts[0]).toMatchObject({ succeeded: false, statusCode: 307 });
    expect(target.requests).toHaveLength(0);
  });
});

describe('which events become deliveries', () => {
  it('does not send kinds the partner did not subscribe to', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url, ['order.shipped']);
    const queuedBefore = deliveriesSent().length;

    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    expect(deliveriesSent()).toHaveLength(queuedBefore);
    expect(await stack.deps.webhookAdmin.listDeliveries(partnerId)).toEqual([]);

    await publishAndFanOut(partnerId, 'order.shipped', orderShippedData(internalOrgId));
    await dispatchOnce();
    expect(partnerReceiver.requests.map((r) => r.headers['x-service-event'])).toEqual(['order.shipped']);
    expect(JSON.parse(partnerReceiver.requests[0]!.rawBody.toString()).data.status).toBe('shipped');
  });

  it('creates one delivery for an event id published twice', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    const eventId = `evt-${randomUUID()}`;
    const data = orderCreatedData(internalOrgId);

    await stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data, eventId });
    await stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data, eventId });
    // Both copies usually arrive in one batch: the one that finds the delivery not yet
    // queued defers to SQS instead of queueing a second first attempt.
    const deferred: string[] = [];
    for (;;) {
      const polled = await stack.consumers.orderEvents.pollOnce();
      if (polled.received === 0) break;
      deferred.push(...polled.failed.map((message) => message.receiptHandle));
    }
    while ((await dispatchOnce()).received > 0);
    // SQS brings a deferred copy back after its visibility timeout; by then it is a duplicate.
    for (const ReceiptHandle of deferred) {
      await stack.deps.aws.sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: stack.queueUrls.orderEvents,
          ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    }
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    while ((await dispatchOnce()).received > 0);

    const deliveries = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ eventId, status: 'delivered', attemptCount: 1 });
    expect(partnerReceiver.requests).toHaveLength(1);
  });

  it('refuses an event for an organization the partner does not have, with a clear error', async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    await expect(
      stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data: orderCreatedData('no-such-org') }),
    ).rejects.toMatchObject({ name: 'OrganizationNotFound', message: expect.stringContaining('"no-such-org"') });
  });

  it('refuses invalid data with the fields at fault', async () => {
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    const { user_email: _, ...withoutEmail } = orderCreatedData(internalOrgId);
    await expect(
      stack.deps.orderEvents.publish({
        partnerId,
        event: 'order.created',
        data: { ...withoutEmail, status: 'shipped' },
      }),
    ).rejects.toMatchObject({
      name: 'ValidationFailed',
      issues: expect.arrayContaining([
        expect.objectContaining({ code: 'REQUIRED', path: ['data', 'user_email'] }),
        expect.objectContaining({ code: 'INVALID_VALUE', path: ['data', 'status'] }),
      ]),
    });
    await expect(stack.deps.orderEvents.publish({ partnerId, event: 'order.lost', data: {} })).rejects.toMatchObject({
      name: 'ValidationFailed',
      issues: [expect.objectContaining({ path: ['event'] })],
    });
  });
});

describe('surviving crashes and redelivery', () => {
  it('never marks delivered what was not recorded, and delivers on the redelivered message', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));

    // The store fails once right after the POST: the dispatcher dies mid-attempt.
    let failNextWrite = true;
    stack.deps.aws.db.middlewareStack.add(
      (next, context) => async (args) => {
        // The delivery's record (webhooks table), not the endpoint's in-flight lease (partners table).
        const table = String((args.input as { TableName?: string }).TableName);
        if (failNextWrite && /^Update(Item)?Command$/.test(context.commandName ?? '') && table.endsWith('webhooks')) {
          failNextWrite = false;
          throw Object.assign(new Error('simulated crash'), { name: 'InternalServerError' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'crashOnce' },
    );
    const first = await dispatchOnce();
    stack.deps.aws.db.middlewareStack.remove('crashOnce');

    expect(first.failed).toHaveLength(1);
    expect(partnerReceiver.requests).toHaveLength(1);
    const [pending] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(pending).toMatchObject({ status: 'pending', attemptCount: 0 });

    // The visibility timeout passes and SQS hands the same message out again.
    await stack.deps.aws.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: stack.queueUrls.webhookDeliveries,
        ReceiptHandle: first.failed[0]!.receiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    await dispatchOnce();

    const [delivered] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(delivered).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(partnerReceiver.requests).toHaveLength(2);
    expect(partnerReceiver.requests[1]!.headers['x-service-delivery-id']).toBe(
      partnerReceiver.requests[0]!.headers['x-service-delivery-id'],
    );
  });

  it('queues the first attempt when the fan-out stopped after creating the delivery, without a second delivery', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data: orderCreatedData(internalOrgId) });

    const restore = failNextSendTo(stack.queueUrls.webhookDeliveries);
    const first = await stack.consumers.orderEvents.pollOnce();
    restore();
    expect(first.failed).toHaveLength(1);
    expect(await stack.deps.webhookAdmin.listDeliveries(partnerId)).toEqual([
      expect.objectContaining({ queued: false, attemptCount: 0 }),
    ]);

    await makeVisibleAgain(stack.queueUrls.orderEvents, first.failed[0]!.receiptHandle);
    expect((await stack.consumers.orderEvents.pollOnce()).failed).toEqual([]);
    await dispatchOnce();

    const deliveries = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', attemptCount: 1 })]);
    expect(partnerReceiver.requests).toHaveLength(1);
  });

  it('queues the retry of a recorded failed attempt when the dispatcher stopped before queueing it', async () => {
    const partnerReceiver = await receiver((n) => (n === 0 ? 500 : 200));
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));

    const restore = failNextSendTo(stack.queueUrls.webhookDeliveries);
    const first = await dispatchOnce();
    restore();
    expect(first.failed).toHaveLength(1);
    const [recorded] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(recorded).toMatchObject({ status: 'pending', attemptCount: 1 });

    await makeVisibleAgain(stack.queueUrls.webhookDeliveries, first.failed[0]!.receiptHandle);
    await dispatchOnce();
    expect(partnerReceiver.requests).toHaveLength(1); // the redelivered message made no second attempt
    expect(lastDeliveryMessage()).toMatchObject({
      delaySeconds: 60,
      body: { attempt: 2, dueAt: recorded?.nextAttemptAt },
    });

    stack.clock.advance(60_000);
    await dispatchOnce();
    expect((await stack.deps.webhookAdmin.listDeliveries(partnerId))[0]).toMatchObject({
      status: 'delivered',
      attemptCount: 2,
    });
  });

  /** A first attempt delivered, then a copy of its message queued again. */
  async function aDeliveredFirstAttemptQueuedAgain() {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    const firstAttempt = lastDeliveryMessage();
    await dispatchOnce();
    await stack.deps.aws.sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.queueUrls.webhookDeliveries,
        MessageBody: JSON.stringify(firstAttempt.body),
      }),
    );
    return { partnerReceiver, firstAttempt };
  }

  it('ignores a redelivered message of an attempt that was already recorded', async () => {
    const { partnerReceiver, firstAttempt } = await aDeliveredFirstAttemptQueuedAgain();
    // The copy is one a handler took and lost (it timed out or crashed with it): SQS hands it out again.
    const { Messages: [taken] = [] } = await stack.deps.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: stack.queueUrls.webhookDeliveries, MaxNumberOfMessages: 1 }),
    );
    await makeVisibleAgain(stack.queueUrls.webhookDeliveries, taken?.ReceiptHandle as string);
    await dispatchOnce();

    expect(partnerReceiver.requests).toHaveLength(1);
    expect(
      (await stack.deps.webhookAdmin.getDelivery(firstAttempt.body.deliveryId as DeliveryId)).attempts,
    ).toHaveLength(1);
  });

  it('ignores a copy of a first attempt that comes as a new message after the attempt was recorded', async () => {
    const { partnerReceiver, firstAttempt } = await aDeliveredFirstAttemptQueuedAgain();
    await dispatchOnce();

    expect(partnerReceiver.requests).toHaveLength(1);
    const shown = await stack.deps.webhookAdmin.getDelivery(firstAttempt.body.deliveryId as DeliveryId);
    expect(shown).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(shown.attempts).toHaveLength(1);
  });
});

describe('the attempt log', () => {
  it('keeps the attempts of earlier chains across replays, the newest 14 of them besides the current chain', async () => {
    const failing = await receiver(() => 500);
    const { partnerId, internalOrgId } = await aSubscribedPartner(failing.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    const deliveryId = delivery?.deliveryId as DeliveryId;

    for (let chain = 1; chain <= 20; chain += 1) {
      if (chain > 1) await stack.deps.webhookAdmin.replay(deliveryId);
      // Five failures in a row would open the endpoint's circuit and keep the next chains unsent: closed again each time.
      const endpoint = await stack.deps.webhookEndpoints.get(partnerId);
      if (endpoint) await stack.deps.webhookEndpoints.put({ ...endpoint, circuit: undefined });
      await dispatchOnce();
      await purgeQueues(stack);
    }

    const shown = await stack.deps.webhookAdmin.getDelivery(deliveryId);
    expect(failing.requests).toHaveLength(20);
    expect(shown).toMatchObject({ chain: 20, attemptCount: 1, status: 'pending' });
    expect(shown.attempts.map((a) => `${a.chain}/${a.attempt}:${a.statusCode}`)).toEqual(
      Array.from({ length: 15 }, (_, i) => `${i + 6}/1:500`),
    );
  });
});

describe('a batch of messages, as Lambda hands it over', () => {
  const handle = createWebhookDispatchHandler(() => Promise.resolve(stack.deps.functions.webhookDispatch));
  const asRecord = (body: string, index: number, receiveCount = 1): SQSRecord =>
    ({
      messageId: `m-${index}`,
      receiptHandle: `r-${index}`,
      body,
      attributes: { ApproximateReceiveCount: String(receiveCount) },
    }) as unknown as SQSRecord;

  /** DynamoDB calls the handler makes, as `Operation(table suffix)`, with each table's key count for a batch read. */
  function recordDynamoCalls() {
    const calls: string[] = [];
    stack.deps.aws.db.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { TableName?: string; RequestItems?: Record<string, { Keys: unknown[] }> };
        const suffix = (table: string | undefined) => String(table).split('-').pop();
        const tables = input.RequestItems
          ? Object.entries(input.RequestItems).map(([table, request]) => `${suffix(table)} ×${request.Keys.length}`)
          : [suffix(input.TableName)];
        calls.push(`${context.commandName}(${tables.join(' + ')})`);
        return next(args);
      },
      { step: 'initialize', name: 'recordDynamoCalls' },
    );
    return { calls, stop: () => stack.deps.aws.db.middlewareStack.remove('recordDynamoCalls') };
  }

  it("reads the batch's deliveries and its partners' endpoints in one request, and delivers every one; a redelivered batch is read and not sent again", async () => {
    const first = await receiver();
    const second = await receiver();
    const partners = [await aSubscribedPartner(first.url), await aSubscribedPartner(second.url)];
    const queuedBefore = deliveriesSent().length;
    for (const [index, partner] of [0, 0, 0, 1, 1].map((p) => partners[p]).entries()) {
      await publishAndFanOut(
        partner?.partnerId as PartnerId,
        'order.created',
        orderCreatedData(partner?.internalOrgId as string),
        `evt-batch-${index}-${randomUUID()}`,
      );
    }
    const bodies = deliveriesSent()
      .slice(queuedBefore)
      .map((message) => JSON.stringify(message.body));
    expect(bodies).toHaveLength(5);

    const firstReceipt = recordDynamoCalls();
    expect((await handle({ Records: bodies.map((body, index) => asRecord(body, index)) })).batchItemFailures).toEqual(
      [],
    );
    firstReceipt.stop();
    expect([first.requests.length, second.requests.length]).toEqual([3, 2]);
    const [batchRead, ...gateReads] = firstReceipt.calls.filter((call) => !call.startsWith('Update'));
    expect(batchRead).toBe('BatchGetItemCommand(webhooks ×5 + partners ×2)');
    // The third attempt to a two-slot endpoint waits for a sibling: only the gate reads the endpoint's slots again for it.
    expect(gateReads.filter((call) => call !== 'GetItemCommand(partners)')).toEqual([]);
    expect(gateReads.length).toBeLessThanOrEqual(2);
    for (const partner of partners) {
      const deliveries = await stack.deps.webhookAdmin.listDeliveries(partner?.partnerId as PartnerId);
      expect(deliveries.map((d) => d.status)).toEqual(deliveries.map(() => 'delivered'));
    }

    // The same messages again, as SQS redelivers them: read, found delivered, not sent again.
    const redelivery = recordDynamoCalls();
    expect(
      (await handle({ Records: bodies.map((body, index) => asRecord(body, index, 2)) })).batchItemFailures,
    ).toEqual([]);
    redelivery.stop();
    expect(redelivery.calls).toEqual(['BatchGetItemCommand(webhooks ×5 + partners ×2)']);
    expect([first.requests.length, second.requests.length]).toEqual([3, 2]);
  });

  it('fails only the record that is not a delivery message, and delivers the others', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aSubscribedPartner(partnerReceiver.url);
    await publishAndFanOut(partnerId, 'order.created', orderCreatedData(internalOrgId));
    const good = JSON.stringify(lastDeliveryMessage().body);
    const unknown = JSON.stringify({ ...lastDeliveryMessage().body, deliveryId: randomUUID() });

    const result = await handle({
      Records: [good, 'not json', '{"deliveryId":"nope"}', unknown].map((body, index) => asRecord(body, index)),
    });

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-2' }]);
    expect(partnerReceiver.requests).toHaveLength(1);
    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 1 });
  });
});
