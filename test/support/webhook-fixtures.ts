import type { SentMessage } from './sqs-delays';
import { randomUUID } from 'node:crypto';
import { PurgeQueueCommand } from '@aws-sdk/client-sqs';
import type {
  Organization,
  OrganizationId,
  Profile,
  ProfileId,
  UserId,
} from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { Delivery, DeliveryId } from '../../functions/webhooks/delivery';
import type { TestStack } from './test-stack';

/** A partner with an alert address and one organization, written through the repositories. */
export async function aPartnerWithOrganization(
  stack: TestStack,
  internalOrgId = `org-${randomUUID().slice(0, 8)}`,
): Promise<{ partnerId: PartnerId; alertEmail: string; internalOrgId: string; organizationId: OrganizationId }> {
  const alertEmail = `alerts-${randomUUID().slice(0, 8)}@partner.test`;
  const { partnerId } = await stack.deps.partnerAdmin.createPartner({ name: 'Webhook Partner', alertEmail });
  const now = stack.clock.now().toISOString();
  const organization: Organization = {
    id: randomUUID() as OrganizationId,
    partnerId,
    internalOrgId,
    name: 'Acme Dental',
    paymentCustomerId: `cus_${randomUUID().slice(0, 8)}`,
    createdAt: now,
  };
  const profile: Profile = {
    id: randomUUID() as ProfileId,
    partnerId,
    organizationId: organization.id,
    internalOrgId,
    internalUserId: 'u-1',
    userId: randomUUID() as UserId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@acme.test',
    createdAt: now,
  };
  await stack.deps.organizations.createOrganization({
    organization,
    profile,
    user: {
      id: profile.userId as UserId,
      partnerId,
      profileId: profile.id,
      email: profile.email,
      status: 'active',
      createdAt: now,
    },
    locations: [],
  });
  return { partnerId, alertEmail, internalOrgId, organizationId: organization.id };
}

/** A delivery whose first attempt is queued and due at `at`; `state` arranges any other. */
export const aQueuedDelivery = (partnerId: PartnerId, at: string, state: Partial<Delivery> = {}): Delivery => ({
  deliveryId: randomUUID() as DeliveryId,
  partnerId,
  eventId: randomUUID(),
  event: 'order.created',
  body: '{"event":"order.created"}',
  status: 'pending',
  chain: 1,
  attemptCount: 0,
  nextAttemptAt: at,
  queued: true,
  createdAt: at,
  updatedAt: at,
  ...state,
});

/** order.created data as the contract shows it. */
export const orderCreatedData = (partnerOrgId: string, orderId: string = randomUUID()) => ({
  order_id: orderId,
  partner_org_id: partnerOrgId,
  user_email: 'ada@acme.test',
  status: 'pending',
  items: [{ product_id: 'glove-m', name: 'Nitrile gloves (M)', quantity: 2, price: 12.5 }],
  subtotal: 25,
  tax: 2.06,
  shipping: 5,
  total: 32.06,
  payment_method: 'card',
  shipping_address: { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' },
});

export const orderShippedData = (partnerOrgId: string, orderId: string = randomUUID()) => ({
  order_id: orderId,
  partner_org_id: partnerOrgId,
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://track.example.com/1Z999AA10123456784',
  estimated_delivery: '2026-11-25T17:00:00.000Z',
  shipped_at: '2026-11-22T12:00:00.000Z',
});

/** Leaves the stack's queues empty, so one test's retries never reach the next test. */
export async function purgeQueues(stack: TestStack): Promise<void> {
  for (const QueueUrl of Object.values(stack.queueUrls))
    await stack.deps.aws.sqs.send(new PurgeQueueCommand({ QueueUrl }));
}

/**
 * Fan-out, then every attempt SQS would make, moving the ManualClock by each DelaySeconds
 * the service asked for (`sent` from recordSqsDelays), so a whole retry ladder runs at once.
 */
export async function processQueues(stack: TestStack, sent: readonly SentMessage[]): Promise<void> {
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  for (;;) {
    const before = sent.length;
    if ((await stack.consumers.webhookDeliveries.pollOnce()).received === 0) return;
    const next = sent.slice(before).find((m) => m.queueUrl === stack.queueUrls.webhookDeliveries);
    if (!next) return;
    stack.clock.advance(next.delaySeconds * 1000);
  }
}
