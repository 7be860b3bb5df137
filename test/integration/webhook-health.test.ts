import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { createWebhookDispatchHandler } from '../../functions/lambdas/webhook-dispatch';
import { webhookSecretName } from '../../functions/resources/resource-definitions';
import { deliveriesList, deliveriesReplay } from '../../lib/ops-cli/delivery-commands';
import { webhookSet, webhookShow } from '../../lib/ops-cli/webhook-commands';
import { runOpsCapturing } from '../support/ops-run';
import { emailsTo } from '../support/ses-outbox';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { type Responder, receiverPool } from '../support/webhook-receiver';
import { aPartnerWithOrganization, orderCreatedData, processQueues, purgeQueues } from '../support/webhook-fixtures';

const DAY_MS = 24 * 3600_000;

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();

beforeAll(async () => {
  // A two-retry ladder (1 min, 5 min): enough to show every rule, short enough to run out.
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: '60,300' } });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps });

const deliveryMessages = () => sent.filter((m) => m.queueUrl === stack.queueUrls.webhookDeliveries);

async function aPartnerReceiving(respond: Responder = () => 200) {
  const receiver = await receivers.start(respond);
  const partner = await aPartnerWithOrganization(stack);
  await webhookSet(stack.deps, { partner: partner.partnerId, url: receiver.url });
  const orderIds: string[] = [];
  /** Publishes an order.created and makes its first attempt only (later retries are dropped with the queue). */
  const publishAndAttemptOnce = async () => {
    const data = orderCreatedData(partner.internalOrgId);
    orderIds.push(data.order_id);
    await stack.deps.orderEvents.publish({ partnerId: partner.partnerId, event: 'order.created', data });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    await stack.consumers.webhookDeliveries.pollOnce();
    await purgeQueues(stack);
  };
  return { ...partner, receiver, orderIds, publishAndAttemptOnce };
}

const show = (partnerId: PartnerId) => webhookShow(stack.deps, { partner: partnerId });
const orderIdsReceived = (requests: { rawBody: Buffer }[]) =>
  requests.map((r) => JSON.parse(r.rawBody.toString('utf8')).data.order_id);

describe('410 Gone', () => {
  it('disables the endpoint at once, e-mails the partner once, and holds later deliveries unsent', async () => {
    const { partnerId, alertEmail, receiver, publishAndAttemptOnce } = await aPartnerReceiving(() => 410);
    await publishAndAttemptOnce();

    expect(await show(partnerId)).toMatchObject({
      status: 'disabled',
      reason: 'the endpoint answered 410 Gone',
      since: stack.clock.now().toISOString(),
    });
    const shown = await ops(['webhook', 'show', '--partner', partnerId, '--json']);
    expect(JSON.parse(shown.text)).toMatchObject({ status: 'disabled', reason: 'the endpoint answered 410 Gone' });

    stack.clock.advance(1000);
    await publishAndAttemptOnce();
    expect(receiver.requests).toHaveLength(1);
    const [held] = (await deliveriesList(stack.deps, { partner: partnerId })).deliveries;
    expect(held).toMatchObject({ status: 'pending', attemptCount: 0 });
    const emails = await emailsTo(alertEmail);
    expect(emails.map((email) => email.subject)).toEqual([`Webhook endpoint disabled: ${receiver.url}`]);
    expect(emails[0]?.body.text).toContain('the endpoint answered 410 Gone');
  });
});

describe('sustained failure', () => {
  it('disables the endpoint once every attempt has failed for 5 days, with one e-mail; a success before that resets the clock', async () => {
    let answer = 500;
    const { partnerId, alertEmail, receiver, publishAndAttemptOnce } = await aPartnerReceiving(() => answer);
    const start = stack.clock.now().getTime();
    await publishAndAttemptOnce();
    expect(await show(partnerId)).toMatchObject({ status: 'enabled', failingSince: new Date(start).toISOString() });

    answer = 200;
    stack.clock.advance(DAY_MS);
    await publishAndAttemptOnce();
    expect(await show(partnerId)).not.toHaveProperty('failingSince');

    answer = 500;
    stack.clock.advance(DAY_MS);
    const streakStart = stack.clock.now().toISOString();
    await publishAndAttemptOnce();
    stack.clock.advance(5 * DAY_MS - 1000);
    await publishAndAttemptOnce();
    expect(await show(partnerId)).toMatchObject({ status: 'enabled', failingSince: streakStart });
    expect(await emailsTo(alertEmail)).toEqual([]);

    stack.clock.advance(1000);
    await publishAndAttemptOnce();
    expect(await show(partnerId)).toMatchObject({
      status: 'disabled',
      reason: `every delivery attempt has failed since ${streakStart}`,
      since: stack.clock.now().toISOString(),
    });

    const requestsWhenDisabled = receiver.requests.length;
    await publishAndAttemptOnce();
    await publishAndAttemptOnce();
    expect(receiver.requests).toHaveLength(requestsWhenDisabled);
    expect((await emailsTo(alertEmail)).map((email) => email.subject)).toEqual([
      `Webhook endpoint disabled: ${receiver.url}`,
    ]);
  });
});

describe('pause, resume, enable, remove', () => {
  const handle = createWebhookDispatchHandler(() => Promise.resolve(stack.deps.functions.webhookDispatch));
  const asRecord = (body: unknown, index: number): SQSRecord =>
    ({
      messageId: `m-${index}`,
      receiptHandle: `r-${index}`,
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1' },
    }) as unknown as SQSRecord;

  it('records deliveries while paused without sending them, and resume sends them oldest first', async () => {
    const { partnerId, receiver, orderIds, publishAndAttemptOnce } = await aPartnerReceiving();
    const paused = await ops(['webhook', 'pause', '--partner', partnerId]);
    expect(paused.code).toBe(0);
    expect(paused.text).toMatch(/^status: +paused$/m);
    for (let i = 0; i < 3; i += 1) {
      await publishAndAttemptOnce();
      stack.clock.advance(1000);
    }
    expect(receiver.requests).toEqual([]);
    const held = (await deliveriesList(stack.deps, { partner: partnerId })).deliveries;
    expect(held.map((d) => [d.status, d.attemptCount])).toEqual([
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);

    const before = deliveryMessages().length;
    const resumed = await ops(['webhook', 'resume', '--partner', partnerId, '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.text)).toMatchObject({ status: 'enabled', requeued: 3 });
    const queued = deliveryMessages().slice(before);
    expect(queued.map((m) => m.body.deliveryId)).toEqual(held.map((d) => d.deliveryId).reverse());

    // As SQS hands them over one at a time, in the order they were queued.
    await purgeQueues(stack);
    for (const [index, message] of queued.entries()) await handle({ Records: [asRecord(message.body, index)] });
    expect(orderIdsReceived(receiver.requests)).toEqual(orderIds);
    expect((await deliveriesList(stack.deps, { partner: partnerId })).deliveries.map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
  });

  it('enable (not resume) brings back a disabled endpoint and sends what it held', async () => {
    let answer = 410;
    const { partnerId, receiver, orderIds, publishAndAttemptOnce } = await aPartnerReceiving(() => answer);
    await publishAndAttemptOnce();
    await publishAndAttemptOnce();
    expect(receiver.requests).toHaveLength(1);

    const refused = await ops(['webhook', 'resume', '--partner', partnerId]);
    expect(refused.code).toBe(1);
    expect(refused.text).toMatch(/is disabled \(the endpoint answered 410 Gone\): use webhook enable/);

    answer = 200;
    const enabled = await ops(['webhook', 'enable', '--partner', partnerId, '--json']);
    expect(enabled.code).toBe(0);
    expect(JSON.parse(enabled.text)).toMatchObject({
      status: 'enabled',
      requeued: 1,
      since: stack.clock.now().toISOString(),
    });
    await processQueues(stack, sent);
    expect(orderIdsReceived(receiver.requests.slice(1))).toEqual([orderIds[1]]);
    // The first one's retry (cut short by the purge) is not lost either: a bulk replay reaches it.
    expect((await show(partnerId)).status).toBe('enabled');
  });

  it('remove deletes the endpoint and its secret and cancels pending deliveries, which a later endpoint can get by replay', async () => {
    const { partnerId, publishAndAttemptOnce } = await aPartnerReceiving();
    await ops(['webhook', 'pause', '--partner', partnerId]);
    await publishAndAttemptOnce();

    const removed = await ops(['webhook', 'remove', '--partner', partnerId, '--json']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.text)).toMatchObject({ removed: true, cancelled: 1 });
    expect((await ops(['webhook', 'show', '--partner', partnerId])).code).toBe(1);
    await expect(
      stack.deps.aws.secrets.send(
        new GetSecretValueCommand({ SecretId: webhookSecretName(stack.config.RESOURCE_PREFIX, partnerId) }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    const [cancelled] = (await deliveriesList(stack.deps, { partner: partnerId })).deliveries;
    expect(cancelled).toMatchObject({ status: 'cancelled', attemptCount: 0 });

    const later = await receivers.start();
    const set = await webhookSet(stack.deps, { partner: partnerId, url: later.url });
    expect(set.secret).toMatch(/^whsec_/);
    expect(set.status).toBe('enabled');
    await deliveriesReplay(stack.deps, { delivery: cancelled!.deliveryId });
    await processQueues(stack, sent);
    expect(later.requests).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  async function firstRetryDelay(respond: Responder) {
    const receiver = await receivers.start(respond);
    const partner = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partner.partnerId, url: receiver.url });
    await stack.deps.orderEvents.publish({
      partnerId: partner.partnerId,
      event: 'order.created',
      data: orderCreatedData(partner.internalOrgId),
    });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    const attemptedAt = stack.clock.now().getTime();
    const before = deliveryMessages().length;
    await stack.consumers.webhookDeliveries.pollOnce();
    const retry = deliveryMessages().slice(before).at(-1) as SentMessage;
    return (new Date(retry.body.dueAt).getTime() - attemptedAt) / 1000;
  }

  it('waits as long as a 429 or 503 asks when that is longer than the next step, at most an hour; other statuses keep the ladder', async () => {
    expect(await firstRetryDelay(() => ({ status: 429, headers: { 'Retry-After': '600' } }))).toBe(600);
    expect(await firstRetryDelay(() => ({ status: 503, headers: { 'Retry-After': '7200' } }))).toBe(3600);
    expect(await firstRetryDelay(() => ({ status: 503, headers: { 'Retry-After': '10' } }))).toBe(60);
    expect(await firstRetryDelay(() => ({ status: 500, headers: { 'Retry-After': '600' } }))).toBe(60);
    const date = new Date(stack.clock.now().getTime() + 900_000).toUTCString();
    expect(await firstRetryDelay(() => ({ status: 429, headers: { 'Retry-After': date } }))).toBe(900);
  });
});

describe('bulk replay', () => {
  it('replays the failed deliveries created since a time, oldest first, each with its own id and body', async () => {
    let answer = 500;
    const receiver = await receivers.start(() => answer);
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
    const publishToTheEnd = async (data: unknown) => {
      await stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data });
      await processQueues(stack, sent);
      stack.clock.advance(3600_000);
    };
    await publishToTheEnd(orderCreatedData(internalOrgId));
    const since = stack.clock.now().toISOString();
    const failed = [orderCreatedData(internalOrgId), orderCreatedData(internalOrgId)];
    for (const data of failed) await publishToTheEnd(data);
    answer = 200;
    await publishToTheEnd(orderCreatedData(internalOrgId));
    const statuses = (await deliveriesList(stack.deps, { partner: partnerId })).deliveries.map((d) => d.status);
    expect(statuses).toEqual(['delivered', 'failed', 'failed', 'failed']);

    const requestsBefore = receiver.requests.length;
    const replayed = await ops([
      'deliveries',
      'replay',
      '--partner',
      partnerId,
      '--since',
      since,
      '--status',
      'failed',
      '--json',
    ]);
    expect(replayed.code).toBe(0);
    const result = JSON.parse(replayed.text);
    expect(result).toMatchObject({ partnerId, since, status: 'failed', replayed: 2 });
    await processQueues(stack, sent);

    const resent = receiver.requests.slice(requestsBefore);
    // Queued oldest first; one batch POSTs them side by side, so they may arrive in either order.
    const orderOf = new Map(resent.map((r) => [r.headers['x-service-delivery-id'], orderIdsReceived([r])[0]]));
    expect(resent).toHaveLength(2);
    expect(result.deliveryIds.map((id: string) => orderOf.get(id))).toEqual(failed.map((data) => data.order_id));
    expect((await deliveriesList(stack.deps, { partner: partnerId })).deliveries.map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'failed',
    ]);
  });

  it('refuses a replay that names neither one delivery nor a partner and a time', async () => {
    // Options that do not make a replay are a usage error; a bad value is a failure.
    expect((await ops(['deliveries', 'replay'])).code).toBe(2);
    expect((await ops(['deliveries', 'replay', '--partner', '00000000-0000-4000-8000-000000000000'])).code).toBe(2);
    const badTime = await ops([
      'deliveries',
      'replay',
      '--partner',
      '00000000-0000-4000-8000-000000000000',
      '--since',
      'yesterday',
    ]);
    expect(badTime.code).toBe(1);
    expect(badTime.text).toMatch(/^Error: --since /);
  });
});
