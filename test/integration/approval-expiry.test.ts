/**
 * The approval expiry sweep as `npm start` runs it (the Lambda handler on the local
 * stack's schedule, reading the injected clock), stepped by hand with a manual clock: a
 * request undecided 7 days after it was made is recorded as expired and its
 * approval.decided (`decision: expired`) reaches a subscribed receiver, once.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../functions/domain/money';
import { tableName } from '../../functions/resources/resource-definitions';
import { ApprovalDecidedData } from '../../functions/domain/events/order-events';
import { WEBHOOK_EVENT_KINDS } from '../../functions/domain/events/order-event-kinds';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { aProduct } from '../support/catalog-fixtures';
import { deliverEverything } from '../support/order-pipeline';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const DAY = 24 * 3600 * 1000;
const GLOVES = aProduct('EXPIRY-GLOVES', {
  name: 'Exam Gloves',
  description: 'M',
  priceCents: 4000 as Cents,
  unit: 'box',
});

let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // The schedule is stepped by hand (`approvalExpiry.runOnce()`), as the consumers are.
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await stack.deps.catalog.upsertMany([GLOVES]);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

async function anOffice() {
  const { partnerId, apiKey } = await stack.deps.partnerAdmin.createPartner({
    name: 'Expiry Partner',
    alertEmail: 'alerts@partner.test',
  });
  const { secret } = await webhookSet(stack.deps, {
    partner: partnerId,
    url: receiver.url,
    events: WEBHOOK_EVENT_KINDS.join(','),
  });
  const body = aSetupBody();
  const buyer = await provisionProfile(stack.deps, partnerId, {
    ...body,
    user: { ...body.user, orderLimit: 50 } as typeof body.user,
  });
  const approver = await provisionProfile(stack.deps, partnerId, {
    ...body,
    internalUserId: `approver-${body.internalUserId}`,
    user: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test', role: 'approver' } as typeof body.user,
  });
  const headers = { Authorization: `Bearer ${apiKey}` };
  const request = async (): Promise<{ id: string; expires_at: string }> => {
    const response = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: buyer.profile.internalUserId, items: [{ product_id: GLOVES.productId, quantity: 2 }] },
      headers,
    );
    expect(response.status, response.text).toBe(202);
    return response.body.approval_request;
  };
  return { internalOrgId: body.internalOrgId, headers, secret: secret as string, approver, request };
}

/** The approval.decided bodies the receiver got for a request, one per delivery, each signed with the partner's secret. */
function decisionsOf(requestId: string, secret: string): Record<string, unknown>[] {
  const byDelivery = new Map<string, Record<string, unknown>>();
  for (const received of receiver.requests) {
    const body = JSON.parse(received.rawBody.toString('utf8'));
    if (body.event !== 'approval.decided' || body.data.approval_request_id !== requestId) continue;
    expect(verifyWebhookSignature(received.rawBody, received.headers['x-service-signature'] as string, secret)).toBe(
      true,
    );
    byDelivery.set(String(received.headers['x-service-delivery-id']), body.data);
  }
  return [...byDelivery.values()];
}

const storedStatus = async (id: string) =>
  (
    await stack.deps.aws.db.send(
      new GetCommand({
        TableName: tableName(stack.config.RESOURCE_PREFIX, 'orders'),
        Key: { pk: `APPROVAL#${id}`, sk: 'REQUEST' },
        ConsistentRead: true,
      }),
    )
  ).Item?.status;

describe('the approval expiry sweep of the local runtime', () => {
  it('records requests past their expiry as expired and delivers approval.decided (expired) once; decided and younger ones are left alone', async () => {
    const office = await anOffice();
    const due = await office.request();
    const decided = await office.request();
    expect(
      (
        await stack.post(
          `/v1/sandbox/approval-requests/${decided.id}/reject`,
          { internal_user_id: office.approver.profile.internalUserId, reason: 'No' },
          office.headers,
        )
      ).status,
    ).toBe(200);
    stack.clock.advance(3 * DAY);
    const younger = await office.request();
    await deliverEverything(stack);

    // Not yet due: the sweep records nothing.
    expect(await stack.approvalExpiry.runOnce()).toEqual({ expired: 0 });
    stack.clock.advance(4 * DAY + 60_000);
    expect(await storedStatus(due.id)).toBe('pending');

    expect(await stack.approvalExpiry.runOnce()).toEqual({ expired: 1 });
    expect(await storedStatus(due.id)).toBe('expired');
    expect(await storedStatus(decided.id)).toBe('rejected');
    expect(await storedStatus(younger.id)).toBe('pending');
    await deliverEverything(stack);
    expect(decisionsOf(due.id, office.secret)).toEqual([
      {
        approval_request_id: due.id,
        partner_org_id: office.internalOrgId,
        decision: 'expired',
        decided_at: due.expires_at,
      },
    ]);
    expect(ApprovalDecidedData.parse(decisionsOf(due.id, office.secret)[0])).toMatchObject({ decision: 'expired' });
    expect(decisionsOf(decided.id, office.secret).map((data) => data.decision)).toEqual(['rejected']);
    expect(decisionsOf(younger.id, office.secret)).toEqual([]);
    expect((await stack.get(`/v1/approval-requests/${due.id}`, office.headers)).body).toMatchObject({
      status: 'expired',
      decided_at: due.expires_at,
      decided_by: null,
    });

    // A second run finds nothing more to do for it: no second webhook.
    await stack.approvalExpiry.runOnce();
    await deliverEverything(stack);
    expect(decisionsOf(due.id, office.secret)).toHaveLength(1);

    // Three days on, the younger one's turn.
    stack.clock.advance(3 * DAY);
    await stack.approvalExpiry.runOnce();
    await deliverEverything(stack);
    expect(decisionsOf(younger.id, office.secret)).toEqual([
      {
        approval_request_id: younger.id,
        partner_org_id: office.internalOrgId,
        decision: 'expired',
        decided_at: younger.expires_at,
      },
    ]);
  });
});
