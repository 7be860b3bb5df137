/**
 * A sandbox decision with an Idempotency-Key whose transaction commits and whose answer is
 * then lost (the Lambda killed between commit and answer: the TransactWriteItems applied,
 * its answer never seen). The decision's 200 is written in that same transaction, so the
 * partner's retry with the same key and body replays it (with `order_id`), rather than
 * finding the request decided and keeping 409 APPROVAL_NOT_PENDING for 24 hours; and
 * nothing is decided or ordered twice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aProduct } from '../support/catalog-fixtures';
import { FaultPlan, injectAwsFaults } from '../support/fault-plan';
import { aColleagueBody, aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';

const GAUZE = aProduct('CRASH-GAUZE');

const plan = new FaultPlan();
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix: stack.config.RESOURCE_PREFIX });
  await stack.deps.catalog.upsertMany([GAUZE]);
});
afterAll(() => stack.close());

/** A partner, an organization with a buyer limited to $50 and an approver, and the buyer's $90 request. */
async function aWaitingRequest() {
  const { partnerId, apiKey } = await stack.createPartner();
  const headers = { Authorization: `Bearer ${apiKey}` };
  const body = aSetupBody();
  const person = (id: string, extra: Record<string, unknown>) =>
    provisionProfile(stack.deps, partnerId, aColleagueBody(body, id, extra));
  const buyer = await person('buyer', { orderLimit: 50 });
  const approver = await person('approver', { role: 'approver' });
  const placed = await stack.post(
    '/v1/sandbox/orders',
    {
      internal_user_id: buyer.profile.internalUserId,
      internal_org_id: body.internalOrgId,
      items: [{ product_id: GAUZE.productId, quantity: 3 }],
    },
    headers,
  );
  expect(placed.status, placed.text).toBe(202);
  return { headers, internalOrgId: body.internalOrgId, approver, id: placed.body.approval_request.id as string };
}

/** The request with the decision's transaction answer lost after it was applied. */
async function crashedAfterCommit(send: () => Promise<TestResponse>): Promise<TestResponse> {
  plan.reset();
  plan.when((call) => call.operation === 'TransactWriteItems', 'lose');
  try {
    return await send();
  } finally {
    plan.disarm();
  }
}

describe('a sandbox decision whose answer is lost after its transaction committed', () => {
  it.each([
    ['approve', {}, 'approved'],
    ['reject', { reason: 'Over budget' }, 'rejected'],
  ] as const)(
    '%s: the retry with the same key replays the first answer, and nothing is doubled',
    async (action, extra, status) => {
      const { headers, internalOrgId, approver, id } = await aWaitingRequest();
      const body = { internal_user_id: approver.profile.internalUserId, ...extra };
      const keyed = { ...headers, 'Idempotency-Key': `${action}-${randomUUID()}` };
      const decide = () => stack.post(`/v1/sandbox/approval-requests/${id}/${action}`, body, keyed);

      const first = await crashedAfterCommit(decide);
      expect(plan.injected.map((i) => i.call.operation)).toEqual(['TransactWriteItems']);
      expect(first.status).toBe(500);
      const stored = await stack.get(`/v1/approval-requests/${id}`, headers);
      expect(stored.body.status).toBe(status);

      // The partner retries, past the key's in-flight lock.
      stack.clock.advance(61_000);
      const retried = await decide();
      expect(retried.status, retried.text).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(retried.body.approval_request).toMatchObject({ id, status });
      const again = await decide();
      expect([again.status, again.body]).toEqual([200, retried.body]);

      const orders = (await stack.get(`/v1/orders?internal_org_id=${internalOrgId}`, headers)).body.data as {
        id: string;
      }[];
      if (action === 'approve') {
        expect(retried.body.approval_request.order_id).toBe(stored.body.order_id);
        expect(orders.map((order) => order.id)).toEqual([stored.body.order_id]);
      } else {
        expect(orders).toEqual([]);
      }
      // Decided once: the request is as the crashed request left it.
      expect((await stack.get(`/v1/approval-requests/${id}`, headers)).body).toEqual(stored.body);
    },
  );
});
