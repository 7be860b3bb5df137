import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { aPartnerWithOrganization, orderCreatedData } from '../support/webhook-fixtures';

// The production setting: HTTPS only, public destinations only.
let stack: TestStack;
let partnerReceiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_REQUIRE_HTTPS_PUBLIC: 'true' } });
  partnerReceiver = await startWebhookReceiver();
});
afterAll(async () => {
  await partnerReceiver.close();
  await stack.close();
});

/**
 * Stores the endpoint directly, as if its URL had passed the checks when it was set (a
 * public name whose DNS record now points inside, or a URL stored before the rules).
 */
async function aPartnerPointedAt(url: string) {
  const partner = await aPartnerWithOrganization(stack);
  await webhookSet(stack.deps, { partner: partner.partnerId, url: 'https://hooks.partner.example.com/orders' });
  const now = stack.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    partnerId: partner.partnerId,
    url,
    events: ['order.created'],
    createdAt: now,
    updatedAt: now,
    secretRotatedAt: now,
    status: 'enabled',
    statusSince: now,
  };
  await stack.deps.webhookEndpoints.put(endpoint);
  return partner;
}

async function attemptOnce(partner: Awaited<ReturnType<typeof aPartnerPointedAt>>) {
  await stack.deps.orderEvents.publish({
    partnerId: partner.partnerId,
    event: 'order.created',
    data: orderCreatedData(partner.internalOrgId),
  });
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  await stack.consumers.webhookDeliveries.pollOnce();
  const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partner.partnerId);
  return delivery;
}

describe('a production dispatcher never connects to non-public destinations', () => {
  const port = () => new URL(partnerReceiver.url).port;

  it('refuses http://127.0.0.1', async () => {
    const delivery = await attemptOnce(await aPartnerPointedAt(`http://127.0.0.1:${port()}/webhooks`));
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(delivery?.attempts[0]).toMatchObject({
      succeeded: false,
      error: expect.stringMatching(/^refused: .*HTTPS/),
    });
    expect(partnerReceiver.requests).toHaveLength(0);
  });

  it('refuses an https URL whose literal address is loopback', async () => {
    const delivery = await attemptOnce(await aPartnerPointedAt(`https://127.0.0.1:${port()}/webhooks`));
    expect(delivery?.attempts[0]).toMatchObject({
      succeeded: false,
      error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address/),
    });
    expect(partnerReceiver.requests).toHaveLength(0);
  });

  it('refuses an https URL whose name resolves to loopback, at connection time', async () => {
    const delivery = await attemptOnce(await aPartnerPointedAt(`https://localhost:${port()}/webhooks`));
    expect(delivery?.attempts[0]).toMatchObject({
      succeeded: false,
      error: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/),
    });
    expect(partnerReceiver.requests).toHaveLength(0);
  });

  it('refuses to set such URLs in the first place', async () => {
    const { partnerId } = await aPartnerWithOrganization(stack);
    for (const url of [
      'http://hooks.partner.example.com/',
      'https://127.0.0.1/',
      'https://[fd00::1]/',
      'https://localhost/',
      'https://10.1.2.3/',
    ]) {
      await expect(webhookSet(stack.deps, { partner: partnerId, url })).rejects.toMatchObject({
        name: 'ValidationFailed',
        issues: [expect.objectContaining({ code: 'INVALID_URL', path: ['url'] })],
      });
    }
  });
});
