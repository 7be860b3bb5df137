/**
 * `client.webhooks.sendTest` against a running local stack: it resolves to the
 * documented 202 body, whose `delivery_id` is the `webhook-id` the partner's receiver
 * then verifies with the SDK's own `constructEvent`; refusals reject with the typed error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient, PartnerConflictError } from '../../sdk/src/index';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { schemaProblems } from '../support/api-document';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

async function aClient() {
  const partner = await stack.createPartner();
  return { partner, client: new PartnerClient({ apiKey: partner.apiKey, baseUrl: stack.url, sleep: async () => {} }) };
}

async function deliverAll(): Promise<void> {
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  while ((await stack.consumers.webhookDeliveries.pollOnce()).received > 0);
}

describe('client.webhooks.sendTest on the local sandbox', () => {
  it('resolves to { delivery_id }, the webhook-id of the test event the receiver verifies', async () => {
    const { partner, client } = await aClient();
    const { secret } = await webhookSet(stack.deps, { partner: partner.partnerId, url: receiver.url });

    const answer = await client.webhooks.sendTest({ event: 'order.delivered' });
    expect(schemaProblems({ $ref: '#/components/schemas/WebhookTestResponse' }, answer)).toEqual([]);
    await deliverAll();

    const request = receiver.requests.find((r) => r.headers['webhook-id'] === answer.delivery_id);
    expect(request, 'the delivery the answer named').toBeDefined();
    const event = client.webhooks.constructEvent(request!.rawBody, request!.headers, secret as string, {
      now: () => stack.clock.now(),
    });
    expect(event.event).toBe('order.delivered');
    expect(event.data).toMatchObject({ status: 'delivered', test: true });
  });

  it('rejects with PartnerConflictError (WEBHOOK_ENDPOINT_NOT_CONFIGURED) when the partner has no endpoint', async () => {
    const { client } = await aClient();
    const failure = await client.webhooks.sendTest({ event: 'order.created' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PartnerConflictError);
    expect(failure).toMatchObject({ status: 409, code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED' });
  });
});
