import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import type { Order } from '../../functions/domain/orders/order';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import type { Product } from '../../functions/domain/catalog/product';
import type { Cents } from '../../functions/domain/money';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { deliverEverything } from '../support/order-pipeline';

let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

async function aBuyer(): Promise<{ partnerId: PartnerId; secret: string; buyer: ProvisionedProfile }> {
  const { partnerId } = await stack.deps.partnerAdmin.createPartner({
    name: 'Orders Partner',
    alertEmail: 'alerts@partner.test',
  });
  const { secret } = await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
  const buyer = await provisionProfile(stack.deps, partnerId);
  return { partnerId, secret: secret as string, buyer };
}

const received = (orderId: string) =>
  receiver.requests
    .map((r) => ({ ...r, body: r.rawBody.toString('utf8'), json: JSON.parse(r.rawBody.toString('utf8')) }))
    .filter((r) => r.json.data.order_id === orderId);

describe('order webhooks come from orders', () => {
  it('placing an order sends one signed order.created whose items and totals are the order’s', async () => {
    const { partnerId, secret, buyer } = await aBuyer();
    await stack.deps.cartService.add(buyer.profile.id, 'GLV-NIT-M-100' as ProductId, 3);
    await stack.deps.cartService.add(buyer.profile.id, 'PPR-LTR-5000' as ProductId, 1);
    const organization = (await stack.deps.organizations.getOrganization(partnerId, buyer.organization.internalOrgId))!;

    const order = await stack.deps.orderService.placeOrder({
      partner: { id: partnerId },
      profile: buyer.profile,
      organization,
    });
    await deliverEverything(stack);

    const [webhook, ...more] = received(order.id);
    expect(more).toEqual([]);
    expect(webhook!.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(webhook!.body).digest('hex')}`,
    );
    expect(webhook!.json).toMatchObject({
      event: 'order.created',
      data: {
        order_id: order.id,
        partner_org_id: buyer.organization.internalOrgId,
        user_email: buyer.profile.email,
        items: [
          { product_id: 'GLV-NIT-M-100', quantity: 3, price: 12.49 },
          { product_id: 'PPR-LTR-5000', quantity: 1 },
        ],
        subtotal: order.subtotalCents / 100,
        tax: order.taxCents / 100,
        shipping: order.shippingCents / 100,
        total: order.totalCents / 100,
        payment_method: 'invoice',
        shipping_address: { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' },
      },
    });
    expect((await stack.deps.cartService.view(buyer.profile.id)).lines).toEqual([]);
  });

  it('each change of an order sends exactly one webhook of its kind, in the order of the changes', async () => {
    const { partnerId, buyer } = await aBuyer();
    const organization = (await stack.deps.organizations.getOrganization(partnerId, buyer.organization.internalOrgId))!;
    const order: Order = await stack.deps.orderService.placeOrder({
      partner: { id: partnerId },
      profile: buyer.profile,
      organization,
      items: [{ productId: 'GLV-NIT-M-100' as ProductId, quantity: 1 }],
    });
    const scope = { partnerId };
    await stack.deps.orderService.transition(order.id, 'confirm', {}, scope);
    await stack.deps.orderService.transition(
      order.id,
      'ship',
      {
        tracking_number: '1Z999',
        carrier: 'UPS',
        tracking_url: 'https://track.example/1Z999',
        estimated_delivery: '2036-01-05T00:00:00Z',
      },
      scope,
    );
    await stack.deps.orderService.transition(order.id, 'deliver', { signature: 'R. Front Desk' }, scope);
    await stack.deps.orderService.transition(order.id, 'refund', { amount: 5, reason: 'one box damaged' }, scope);
    await deliverEverything(stack);
    await deliverEverything(stack);

    expect(
      received(order.id)
        .map((w) => w.json.event)
        .sort(),
    ).toEqual(['order.confirmed', 'order.created', 'order.delivered', 'order.refunded', 'order.shipped'].sort());
    expect(received(order.id).find((w) => w.json.event === 'order.refunded')!.json.data).toMatchObject({
      refund_amount: 5,
      reason: 'one box damaged',
    });
  });

  it('delivers an order whose names hold emoji intact, through every queue, with the sequence and previous status of each change', async () => {
    const name = 'Gloves 🧤 “Größe M” ✨ 手袋';
    const product: Product = {
      productId: 'EMOJI-GLOVES-🧤' as ProductId,
      name,
      description: 'Boxed in 📦',
      category: 'Gloves & PPE 🧤',
      priceCents: 1250 as Cents,
      unit: 'box of 100 🧤',
      active: true,
      image: `${'0'.repeat(64)}.svg`,
    };
    await stack.deps.catalog.upsertMany([product]);
    const { partnerId } = await stack.deps.partnerAdmin.createPartner({
      name: 'Emoji Partner 🎉',
      alertEmail: 'alerts@partner.test',
    });
    const { secret } = await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
    const buyer = await provisionProfile(
      stack.deps,
      partnerId,
      aSetupBody({
        shippingLocations: [
          {
            internalShippingLocationId: 'loc-🏥',
            name: 'Clinic 🏥',
            address: { line1: '1 Café Way 🌮', city: 'San José', province: 'CA', postalCode: '95113' },
            isDefault: true,
          },
        ],
      }),
    );
    const organization = (await stack.deps.organizations.getOrganization(partnerId, buyer.organization.internalOrgId))!;
    const order = await stack.deps.orderService.placeOrder({
      partner: { id: partnerId },
      profile: buyer.profile,
      organization,
      items: [{ productId: product.productId, quantity: 2 }],
    });
    await stack.deps.orderService.transition(order.id, 'confirm', {}, { partnerId });
    await deliverEverything(stack);
    await deliverEverything(stack);

    const webhooks = received(order.id).sort((a, b) => a.json.data.sequence - b.json.data.sequence);
    expect(webhooks.map((w) => [w.json.event, w.json.data.sequence, w.json.data.previous_status])).toEqual([
      ['order.created', 1, null],
      ['order.confirmed', 2, 'pending'],
    ]);
    const created = webhooks[0]!;
    expect(created.json.data.items).toEqual([{ product_id: 'EMOJI-GLOVES-🧤', name, quantity: 2, price: 12.5 }]);
    expect(created.json.data.shipping_address).toMatchObject({ line1: '1 Café Way 🌮', city: 'San José' });
    expect(created.body).toContain(name);
    expect(created.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', secret as string)
        .update(created.rawBody)
        .digest('hex')}`,
    );
  });
});
