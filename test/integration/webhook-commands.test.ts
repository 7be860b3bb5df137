import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { webhookSecretName } from '../../functions/resources/resource-definitions';
import { deliveriesList, deliveriesReplay, deliveriesShow } from '../../lib/ops-cli/delivery-commands';
import { orderEventPublish } from '../../lib/ops-cli/order-event-commands';
import { outbox } from '../../lib/ops-cli/outbox-commands';
import { webhookRotateSecret, webhookSet, webhookShow } from '../../lib/ops-cli/webhook-commands';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { receiverPool } from '../support/webhook-receiver';
import {
  aPartnerWithOrganization,
  orderCreatedData,
  purgeQueues,
  processQueues as processQueuesOf,
} from '../support/webhook-fixtures';

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();

// A one-retry ladder keeps the failure cases short; the full ladder is covered in webhooks.test.ts.
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: '60' } });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

const receiver = receivers.start;
/** The current secret in Secrets Manager's stored value (`{"current": …, "retiring": […]}`). */
const storedSecret = async (partnerId: string) =>
  JSON.parse(
    (
      await stack.deps.aws.secrets.send(
        new GetSecretValueCommand({ SecretId: webhookSecretName(stack.config.RESOURCE_PREFIX, partnerId) }),
      )
    ).SecretString as string,
  ).current;

const processQueues = () => processQueuesOf(stack, sent);

describe('webhook set / show / rotate-secret', () => {
  it('stores a generated whsec_ secret in Secrets Manager and prints it once; show never prints it', async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    const set = await webhookSet(stack.deps, {
      partner: partnerId,
      url: 'http://127.0.0.1:9/hooks',
      events: 'order.shipped, order.created',
    });

    expect(set.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(set.secret!.slice(6), 'base64')).toHaveLength(32);
    expect(await storedSecret(partnerId)).toBe(set.secret);
    expect(set).toMatchObject({
      partnerId,
      url: 'http://127.0.0.1:9/hooks',
      events: ['order.created', 'order.shipped'],
    });

    const shown = await webhookShow(stack.deps, { partner: partnerId });
    expect(shown).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['order.created', 'order.shipped'] });
    expect(JSON.stringify(shown)).not.toContain(set.secret);

    const changed = await webhookSet(stack.deps, { partner: partnerId, url: 'http://127.0.0.1:10/hooks' });
    expect(changed).not.toHaveProperty('secret');
    expect(changed.events).toHaveLength(6);
    expect(await storedSecret(partnerId)).toBe(set.secret);
  });

  it("stores the partner's preferred secret without echoing it", async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    const preferred = 'partner-chosen-secret-0123456789';
    const set = await webhookSet(stack.deps, {
      partner: partnerId,
      url: 'http://127.0.0.1:9/hooks',
      secret: preferred,
    });
    expect(JSON.stringify(set)).not.toContain(preferred);
    expect(await storedSecret(partnerId)).toBe(preferred);
  });

  it('refuses bad input with every problem named, and unknown partners', async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    await expect(
      webhookSet(stack.deps, {
        partner: partnerId,
        url: 'ftp://x',
        events: 'order.created,order.lost',
        secret: 'short',
      }),
    ).rejects.toMatchObject({
      name: 'ValidationFailed',
      issues: [
        expect.objectContaining({ path: ['url'] }),
        expect.objectContaining({ path: ['events'], message: expect.stringContaining('order.lost') }),
        expect.objectContaining({ path: ['secret'] }),
      ],
    });
    await expect(
      webhookSet(stack.deps, { partner: '00000000-0000-4000-8000-000000000000', url: 'http://127.0.0.1:9/' }),
    ).rejects.toMatchObject({ name: 'NotFound' });
    await expect(webhookShow(stack.deps, { partner: partnerId })).rejects.toMatchObject({ name: 'NotFound' });
  });

  it('rotates the secret without overlap: printed once, stored, and deliveries are signed with it alone', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    const first = await webhookSet(stack.deps, { partner: partnerId, url: partnerReceiver.url });
    const rotated = await webhookRotateSecret(stack.deps, { partner: partnerId, overlap: 0 });

    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first.secret);
    expect(await storedSecret(partnerId)).toBe(rotated.secret);

    await orderEventPublish(stack.deps, {
      partner: partnerId,
      event: 'order.created',
      data: JSON.stringify(orderCreatedData(internalOrgId)),
    });
    await processQueues();
    const [request] = partnerReceiver.requests;
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], rotated.secret)).toBe(
      true,
    );
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], first.secret!)).toBe(
      false,
    );
  });
});

describe('order-event', () => {
  it('publishes from a JSON file through the ingestion path, and the partner receives it', async () => {
    const partnerReceiver = await receiver();
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partnerId, url: partnerReceiver.url });
    const file = join(await mkdtemp(join(tmpdir(), 'order-event-')), 'created.json');
    const data = orderCreatedData(internalOrgId);
    await writeFile(file, JSON.stringify(data));

    const published = await orderEventPublish(stack.deps, {
      partner: partnerId,
      event: 'order.created',
      data: `@${file}`,
      eventId: 'evt-1',
    });
    expect(published).toMatchObject({ eventId: 'evt-1', event: 'order.created', partnerId, data });
    await processQueues();

    expect(partnerReceiver.requests).toHaveLength(1);
    expect(JSON.parse(partnerReceiver.requests[0]!.rawBody.toString())).toEqual({
      event: 'order.created',
      timestamp: published.timestamp,
      // The fan-out adds the order's invoice as the webhook leaves: none yet.
      data: { ...data, invoice: null },
    });
  });

  it('refuses malformed JSON with a clear error', async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    await expect(
      orderEventPublish(stack.deps, { partner: partnerId, event: 'order.created', data: '{nope' }),
    ).rejects.toMatchObject({
      name: 'ValidationFailed',
      issues: [expect.objectContaining({ code: 'MALFORMED_JSON', path: ['data'] })],
    });
  });
});

describe('deliveries list / show / replay, and the outbox', () => {
  it('lists deliveries with their attempts, filters by status, replays a failed one, and shows the alert in the outbox', async () => {
    let healthy = false;
    const partnerReceiver = await receiver(() => (healthy ? 200 : 502));
    const { partnerId, internalOrgId, alertEmail } = await aPartnerWithOrganization(stack);
    await webhookSet(stack.deps, { partner: partnerId, url: partnerReceiver.url });
    await orderEventPublish(stack.deps, {
      partner: partnerId,
      event: 'order.created',
      data: JSON.stringify(orderCreatedData(internalOrgId)),
    });
    await processQueues();

    const failed = await deliveriesList(stack.deps, { partner: partnerId, status: 'failed' });
    expect(failed.deliveries).toHaveLength(1);
    const [delivery] = failed.deliveries;
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 2, alertStatus: 'sent' });
    expect(delivery).not.toHaveProperty('body');
    expect(delivery?.attempts.map((a) => [a.attempt, a.statusCode, a.responseBody])).toEqual([
      [1, 502, 'answer 502 to request 0'],
      [2, 502, 'answer 502 to request 1'],
    ]);
    expect((await deliveriesList(stack.deps, { partner: partnerId, status: 'delivered' })).deliveries).toEqual([]);

    const mail = await outbox(stack.deps, { to: alertEmail });
    expect(mail.emails).toHaveLength(1);
    expect(mail.emails[0]).toMatchObject({ to: [alertEmail], subject: expect.stringContaining(delivery!.deliveryId) });

    healthy = true;
    const replayed = await deliveriesReplay(stack.deps, { delivery: delivery!.deliveryId });
    expect(replayed).toMatchObject({ deliveryId: delivery!.deliveryId, status: 'pending', chain: 2 });
    await processQueues();

    const shown = await deliveriesShow(stack.deps, { delivery: delivery!.deliveryId });
    expect(shown).toMatchObject({ status: 'delivered', chain: 2, attemptCount: 1 });
    expect(shown.attempts.map((a) => [a.chain, a.attempt, a.statusCode])).toEqual([
      [1, 1, 502],
      [1, 2, 502],
      [2, 1, 200],
    ]);
    const requests = partnerReceiver.requests;
    expect(requests).toHaveLength(3);
    expect(requests[2]!.headers['x-service-delivery-id']).toBe(delivery!.deliveryId);
    expect(requests[2]!.rawBody.equals(requests[0]!.rawBody)).toBe(true);
    expect(requests[2]!.rawBody.toString()).toBe(shown.body);
    expect((await outbox(stack.deps, { to: alertEmail })).emails).toHaveLength(1);
  });

  it('refuses an unknown status filter and an unknown delivery', async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    await expect(deliveriesList(stack.deps, { partner: partnerId, status: 'lost' })).rejects.toMatchObject({
      name: 'ValidationFailed',
    });
    await expect(
      deliveriesReplay(stack.deps, { delivery: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ name: 'NotFound' });
  });
});
