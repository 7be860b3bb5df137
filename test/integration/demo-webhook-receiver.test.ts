/**
 * The demo's webhook receiver: the sandbox partner's endpoint is pointed at it on the
 * demo's first use, it verifies what arrives, and the demo's log page lists it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { createDemoApp, type DemoConnection } from '../../lib/local-runtime/demo-app';
import { DemoWebhookReceiver, wireDemoWebhooks } from '../../lib/local-runtime/demo-webhook-receiver';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';
import { deliverEverything } from '../support/order-pipeline';

let stack: TestStack;
let partnerId: PartnerId;
const receiver = new DemoWebhookReceiver();

beforeAll(async () => {
  let connect: (connection: DemoConnection) => void = () => undefined;
  const connection = new Promise<DemoConnection>((done) => {
    connect = done;
  });
  const demo = createDemoApp({
    connection: () => connection,
    provision: async (user) => {
      await provisionProfile(stack.deps, partnerId, user.setup);
    },
    webhooks: { receiver, wire: (url) => wireDemoWebhooks(stack.deps.webhookAdmin, partnerId, url, receiver.secret) },
  });
  stack = await startTestStack({ pages: [demo], queuePollers: false });
  const partner = await stack.createPartner();
  partnerId = partner.partnerId;
  connect({ apiUrl: stack.url, apiKey: partner.apiKey });
});
afterAll(() => stack.close());

const log = async () => (await fetch(`${stack.url}/demo/webhook-log`)).text();

describe('the demo partner webhook receiver', () => {
  it("wires the partner's endpoint at first use and lists a placed order's order.created as verified", async () => {
    expect(await log()).toContain('No webhooks yet');
    expect((await stack.deps.webhookAdmin.showEndpoint(partnerId)).url).toBe(`${stack.url}/demo/webhooks`);

    const buyer = await provisionProfile(stack.deps, partnerId);
    await stack.deps.cartService.add(buyer.profile.id, 'PPR-LTR-5000');
    const order = await stack.deps.orderService.placeOrder({
      partner: { id: partnerId },
      profile: buyer.profile,
      organization: (await stack.deps.organizations.getOrganization(partnerId, buyer.organization.internalOrgId))!,
    });
    await deliverEverything(stack);

    expect(receiver.list().map((hook) => [hook.body?.event, hook.body?.data?.order_id, hook.verified])).toEqual([
      ['order.created', order.id, true],
    ]);
    const page = await log();
    expect(page).toContain('<span class="event">order.created</span><span class="ok">✓ verified</span>');
    expect(page).toContain(`Order <span class="id">${order.id.slice(0, 8)}</span> · 1 line`);
  });

  it('shows a delivery whose signature does not match as not verified', async () => {
    await fetch(`${stack.url}/demo/webhooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Service-Signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ event: 'order.shipped', data: { order_id: 'forged-order' } }),
    });
    expect(receiver.list()[0]).toMatchObject({ verified: false, body: { event: 'order.shipped' } });
    expect(await log()).toContain('<span class="event">order.shipped</span><span class="bad">✗ bad signature</span>');
  });

  it('leaves an endpoint someone set elsewhere alone', async () => {
    const other = await stack.createPartner();
    await stack.deps.webhookAdmin.configureEndpoint({ partnerId: other.partnerId, url: 'http://localhost:9/hooks' });
    expect(
      await wireDemoWebhooks(stack.deps.webhookAdmin, other.partnerId, `${stack.url}/demo/webhooks`, receiver.secret),
    ).toBe(false);
    expect((await stack.deps.webhookAdmin.showEndpoint(other.partnerId)).url).toBe('http://localhost:9/hooks');
  });
});
