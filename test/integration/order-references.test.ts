/**
 * The buyer's PO number and notes: typed at checkout, kept on the order, shown on its
 * page, answered by the partner order API as `po_number` / `notes` (null when absent),
 * and carried by `order.created` and every later event. Bad input is a page or a 400.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { type ModuleClient, signInToModule } from '../support/module-client';
import { deliverEverything } from '../support/order-pipeline';
import { provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
let partner: { partnerId: PartnerId; apiKey: string };

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  partner = await stack.createPartner();
  await webhookSet(stack.deps, { partner: partner.partnerId, url: receiver.url });
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const eventsOf = (orderId: string) =>
  receiver.requests.map((r) => JSON.parse(r.rawBody.toString('utf8'))).filter((e) => e.data.order_id === orderId);

async function aBuyerWithCart(): Promise<{ buyer: ProvisionedProfile; module: ModuleClient }> {
  const buyer = await provisionProfile(stack.deps, partner.partnerId);
  const module = await signInToModule(stack, partner, buyer);
  await module.submit(`${module.base}/cart/items`, { product_id: 'GLV-NIT-M-100' });
  return { buyer, module };
}

const auth = () => ({ Authorization: `Bearer ${partner.apiKey}` });

describe('PO number and notes', () => {
  it('are asked at checkout, kept on the order, shown on its page, answered by the API and carried by every event', async () => {
    const { buyer, module } = await aBuyerWithCart();
    const checkout = await module.get(`${module.base}/checkout`);
    expect(checkout.text).toContain('<label for="po_number">PO number');
    expect(checkout.text).toContain('<label for="notes">Order notes');
    expect(checkout.text).toContain('maxlength="64"');

    const placed = await module.submit(`${module.base}/orders`, {
      location: buyer.locations[0]!.id,
      po_number: '  PO-7781  ',
      notes: 'Leave at reception.\r\nRing twice.',
    });
    expect(placed.status).toBe(303);
    const orderId = /\/orders\/([0-9a-f-]{36})\?placed=1$/.exec(placed.location ?? '')?.[1] as string;

    const page = await module.get(placed.location as string);
    expect(page.text).toContain('<dd data-testid="po-number">PO-7781</dd>');
    expect(page.text).toContain('<dd data-testid="order-notes">Leave at reception. Ring twice.</dd>');

    const api = await stack.get(`/v1/orders/${orderId}`, auth());
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ po_number: 'PO-7781', notes: 'Leave at reception. Ring twice.' });

    await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, auth());
    await stack.post(`/v1/sandbox/orders/${orderId}/cancel`, { reason: 'Duplicate' }, auth());
    await deliverEverything(stack);
    const events = eventsOf(orderId);
    expect(events.map((e) => e.event).sort()).toEqual(['order.cancelled', 'order.confirmed', 'order.created']);
    for (const event of events)
      expect(event.data).toMatchObject({ po_number: 'PO-7781', notes: 'Leave at reception. Ring twice.' });
  });

  it('are null in the API and the events when not given', async () => {
    const { buyer, module } = await aBuyerWithCart();
    const placed = await module.submit(`${module.base}/orders`, {
      location: buyer.locations[0]!.id,
      po_number: '   ',
      notes: '',
    });
    const orderId = /\/orders\/([0-9a-f-]{36})/.exec(placed.location ?? '')?.[1] as string;
    expect((await module.get(placed.location as string)).text).not.toContain('PO number');
    expect((await stack.get(`/v1/orders/${orderId}`, auth())).body).toMatchObject({ po_number: null, notes: null });
    await deliverEverything(stack);
    expect(eventsOf(orderId)[0]!.data).toMatchObject({ po_number: null, notes: null });
  });

  it('refuses a PO number too long, notes too long or a control character with a page, ordering nothing', async () => {
    const { buyer, module } = await aBuyerWithCart();
    const refused: Record<string, string>[] = [
      { po_number: 'P'.repeat(65) },
      { notes: 'n'.repeat(501) },
      { po_number: 'PO\u0007' },
      { notes: 'bell\u0000' },
      { notes: 'rtl\u202Eevil' },
    ];
    for (const fields of refused) {
      const res = await module.submit(`${module.base}/orders`, { location: buyer.locations[0]!.id, ...fields });
      expect(res.status).toBe(400);
      expect(res.text).toContain('<h1>Please check that</h1>');
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(
      (await stack.deps.orderService.listForOrganization(buyer.organization, { partnerId: partner.partnerId })).orders,
    ).toEqual([]);
    expect((await stack.deps.cartService.view(buyer.profile.id)).lines).toHaveLength(1);
  });

  it('the sandbox order route takes po_number and notes, and answers 400 VALIDATION_ERROR for bad ones', async () => {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const items = [{ product_id: 'GLV-NIT-M-100', quantity: 2 }];
    const ok = await stack.post(
      '/v1/sandbox/orders',
      { profile_id: buyer.profile.id, items, po_number: 'PO-1', notes: 'Back door' },
      auth(),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.order ?? ok.body).toMatchObject({ po_number: 'PO-1', notes: 'Back door' });

    for (const bad of [
      { po_number: 'x'.repeat(65) },
      { notes: 'y'.repeat(501) },
      { po_number: 'a\nb' },
      { notes: 'a\u0000b' },
      { po_number: 42 },
    ]) {
      const res = await stack.post('/v1/sandbox/orders', { profile_id: buyer.profile.id, items, ...bad }, auth());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.details[0].path[0]).toBe(Object.keys(bad)[0]);
    }
  });
});
