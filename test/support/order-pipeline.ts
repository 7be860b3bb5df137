/**
 * Orders end to end in tests: a partner with a webhook receiver and an API key, a buyer
 * provisioned as setup stores one, and the outbox pipeline stepped by hand (stream →
 * relay → fan-out → dispatch), with the webhooks each order produced.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ProductId } from '../../functions/domain/catalog/product';
import { importCatalogFile } from '../../functions/domain/catalog/catalog-file-import';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { aSetupBody, provisionProfile, type ProvisionedProfile, type SetupBody } from './provisioned-profile';
import type { TestStack } from './test-stack';
import type { WebhookReceiver } from './webhook-receiver';

/** A picture for test products: the import checks it like any other. */
export const A_PICTURE = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#5b9bd5"/></svg>',
);

/** Prices whose float sums drift: 0.1 + 0.2 is 0.30000000000000004, 19.99 × 3 is 59.96999999999999. */
export const DRIFT_PRODUCTS = [
  {
    product_id: 'DRIFT-010',
    name: 'Cotton rolls',
    description: 'Ten cents',
    category: 'clinical-disposables',
    price: 0.1,
    unit: 'bag',
    active: true,
    image: 'picture.svg',
  },
  {
    product_id: 'DRIFT-020',
    name: 'Bite blocks',
    description: 'Twenty cents',
    category: 'clinical-disposables',
    price: 0.2,
    unit: 'each',
    active: true,
    image: 'picture.svg',
  },
  {
    product_id: 'DRIFT-1999',
    name: 'Exam gloves',
    description: 'Nineteen ninety-nine',
    category: 'gloves-ppe',
    price: 19.99,
    unit: 'box of 100',
    active: true,
    image: 'picture.svg',
  },
  {
    product_id: 'RETIRED-1',
    name: 'Retired product',
    description: 'No longer sold',
    category: 'office',
    price: 5,
    unit: 'each',
    active: false,
    image: 'picture.svg',
  },
];

/** Adds the drift products to the stack's catalog (the seed catalog stays). */
export async function importDriftProducts(stack: TestStack): Promise<void> {
  const imported = await importCatalogFile(DRIFT_PRODUCTS, {
    catalog: stack.deps.catalog,
    images: stack.deps.productImages,
    readImage: async () => A_PICTURE,
  });
  if (!imported.ok) throw new Error(JSON.stringify(imported.issues));
}

export interface OrderingPartner {
  readonly partnerId: PartnerId;
  readonly apiKey: string;
  readonly secret: string;
  readonly buyer: ProvisionedProfile;
  readonly bearer: Record<string, string>;
}

/** A partner with every scope, a webhook for every kind at `receiver`, and one buyer in a Texas organization. */
export async function anOrderingPartner(
  stack: TestStack,
  receiver: WebhookReceiver,
  body: SetupBody = aSetupBody(),
): Promise<OrderingPartner> {
  const { partnerId, apiKey } = await stack.deps.partnerAdmin.createPartner({
    name: `Orders ${randomUUID().slice(0, 6)}`,
    alertEmail: 'alerts@partner.test',
  });
  const { secret } = await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
  const buyer = await provisionProfile(stack.deps, partnerId, body);
  return { partnerId, apiKey, secret: secret as string, buyer, bearer: { Authorization: `Bearer ${apiKey}` } };
}

/** Everything between a committed change and the partner's endpoint: stream → relay → fan-out → dispatch. */
export async function deliverEverything(stack: TestStack): Promise<void> {
  for (let round = 0; round < 8; round += 1) {
    const relayed = await stack.orderOutbox.pollOnce();
    const fanned = await stack.consumers.orderEvents.pollOnce();
    const sent = await stack.consumers.webhookDeliveries.pollOnce();
    if (relayed.received + fanned.received + sent.received === 0) return;
  }
}

export interface ReceivedOrderWebhook {
  readonly event: string;
  readonly deliveryId: string;
  readonly body: { event: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * The webhooks the receiver got for one order, each checked for a valid signature, with
 * duplicates of one delivery (at least once) counted once.
 */
export function webhooksOf(receiver: WebhookReceiver, orderId: string, secret: string): ReceivedOrderWebhook[] {
  const byDelivery = new Map<string, ReceivedOrderWebhook>();
  for (const request of receiver.requests) {
    const body = JSON.parse(request.rawBody.toString('utf8'));
    if (body.data?.order_id !== orderId) continue;
    expect(verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(
      true,
    );
    const deliveryId = String(request.headers['x-service-delivery-id']);
    byDelivery.set(deliveryId, { event: body.event, deliveryId, body });
  }
  return [...byDelivery.values()];
}

export const anItem = (productId: string, quantity = 1) => ({ product_id: productId as ProductId, quantity });
