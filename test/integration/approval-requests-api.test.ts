/**
 * Approval requests through the partner API on the local sandbox stack, as a partner's CI
 * sees them (docs/orders-api.md, "Approval requests"): a sandbox order above its user's
 * order limit answers 202 with the request, the list and the request read them as they
 * are now, and an approver decides them through the sandbox routes under the module's
 * rules, each decision with its webhooks, retried safely with an Idempotency-Key.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import type { Cents } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import {
  ApprovalDecidedData,
  ApprovalRequestedData,
  DELIVERED_ORDER_EVENT_DATA,
} from '../../functions/domain/events/order-events';
import { WEBHOOK_EVENT_KINDS } from '../../functions/domain/events/order-event-kinds';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { aProduct } from '../support/catalog-fixtures';
import { deliverEverything } from '../support/order-pipeline';
import { aColleagueBody, aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;

/** Products of this file's own: $30 and $12.50. */
const GAUZE = aProduct('APIAPPR-GAUZE');
const MASKS = {
  ...GAUZE,
  productId: 'APIAPPR-MASKS' as ProductId,
  name: 'Procedure Masks',
  priceCents: 1250 as Cents,
  unit: 'box of 50',
} satisfies Product;

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await stack.deps.catalog.upsertMany([GAUZE, MASKS]);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

interface Office {
  readonly partnerId: PartnerId;
  readonly headers: Record<string, string>;
  /** Order limit $50. */
  readonly buyer: ProvisionedProfile;
  readonly approver: ProvisionedProfile;
  /** An approver whose own limit is $10, so its orders need another approver. */
  readonly limitedApprover: ProvisionedProfile;
  readonly internalOrgId: string;
}

/** A partner whose endpoint takes `events` (every kind unless told; `default`: set without a list), and an organization with a limited buyer and two approvers. */
async function anOffice(events: string = WEBHOOK_EVENT_KINDS.join(',')): Promise<Office> {
  const { partnerId, apiKey } = await stack.deps.partnerAdmin.createPartner({
    name: 'Approvals API Partner',
    alertEmail: 'alerts@partner.test',
  });
  await webhookSet(stack.deps, { partner: partnerId, url: receiver.url, ...(events === 'default' ? {} : { events }) });
  const body = aSetupBody();
  const person = (id: string, first: string, extra: Record<string, unknown>) =>
    provisionProfile(stack.deps, partnerId, aColleagueBody(body, id, { firstName: first, ...extra }));
  const buyer = await person('buyer', 'Ada', { orderLimit: 50 });
  const approver = await person('approver', 'Grace', { role: 'approver' });
  const limitedApprover = await person('approver2', 'Katherine', { role: 'approver', orderLimit: 10 });
  return {
    partnerId,
    headers: { Authorization: `Bearer ${apiKey}` },
    buyer,
    approver,
    limitedApprover,
    internalOrgId: body.internalOrgId,
  };
}

/** $90 of gauze and $25 of masks: over $50. */
const OVER_THE_LIMIT = [
  { product_id: GAUZE.productId, quantity: 3 },
  { product_id: MASKS.productId, quantity: 2 },
];

const place = (
  office: Office,
  who: ProvisionedProfile = office.buyer,
  items: unknown = OVER_THE_LIMIT,
  extra: Record<string, unknown> = {},
) =>
  stack.post(
    '/v1/sandbox/orders',
    {
      internal_user_id: who.profile.internalUserId,
      internal_org_id: office.internalOrgId,
      items,
      po_number: 'PO-9',
      ...extra,
    },
    office.headers,
  );

/** A new request of the buyer's (or `who`'s), through the sandbox order route. */
async function aRequest(office: Office, who: ProvisionedProfile = office.buyer): Promise<Record<string, any>> {
  const response = await place(office, who);
  expect(response.status, response.text).toBe(202);
  return response.body.approval_request;
}

const decide = (
  office: Office,
  id: string,
  action: 'approve' | 'reject',
  body: unknown,
  headers: Record<string, string> = {},
) => stack.post(`/v1/sandbox/approval-requests/${id}/${action}`, body, { ...office.headers, ...headers });

const list = (office: Office, query = '', headers = office.headers) =>
  stack.get(`/v1/organizations/${office.internalOrgId}/approval-requests${query}`, headers);

/** The bodies the receiver got about these request or order ids, one per delivery. */
function webhooksAbout(ids: readonly string[]): { event: string; data: Record<string, unknown> }[] {
  const seen = new Map<string, { event: string; data: Record<string, unknown> }>();
  for (const request of receiver.requests) {
    const body = JSON.parse(request.rawBody.toString('utf8'));
    if (ids.includes(body.data?.approval_request_id) || ids.includes(body.data?.order_id))
      seen.set(String(request.headers['x-service-delivery-id']), body);
  }
  return [...seen.values()];
}

const errorOf = (response: TestResponse) => ({ status: response.status, code: response.body?.code });

describe('POST /v1/sandbox/orders and the order limit', () => {
  it('above the limit: 202 with the pending request, nothing ordered, approval.requested delivered; within it: 201 as before', async () => {
    const office = await anOffice();
    const response = await place(office);
    expect(response.status, response.text).toBe(202);
    const request = response.body.approval_request;
    expect(response.body.success).toBe(true);
    expect(request).toMatchObject({
      object: 'approval_request',
      status: 'pending',
      partner_org_id: office.internalOrgId,
      internal_user_id: office.buyer.profile.internalUserId,
      user_email: office.buyer.profile.email,
      items: [
        { product_id: GAUZE.productId, name: GAUZE.name, unit: GAUZE.unit, quantity: 3, price: 30 },
        { product_id: MASKS.productId, name: MASKS.name, unit: MASKS.unit, quantity: 2, price: 12.5 },
      ],
      subtotal: 115,
      shipping: 9.95,
      po_number: 'PO-9',
      notes: null,
      shipping_address: { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' },
      created_at: stack.clock.now().toISOString(),
      expires_at: new Date(stack.clock.now().getTime() + 7 * 24 * 3600 * 1000).toISOString(),
      decided_at: null,
      decided_by: null,
      reason: null,
      order_id: null,
    });
    expect(request.total).toBeCloseTo(request.subtotal + request.tax + request.shipping, 2);
    expect((await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data).toEqual(
      [],
    );

    await deliverEverything(stack);
    const [requested, ...others] = webhooksAbout([request.id]);
    expect(others).toEqual([]);
    expect(requested!.event).toBe('approval.requested');
    expect(ApprovalRequestedData.parse(requested!.data)).toMatchObject({
      approval_request_id: request.id,
      internal_user_id: office.buyer.profile.internalUserId,
      total: request.total,
      po_number: 'PO-9',
    });

    // Within the limit, and for a user without one, the sandbox places the order as before.
    const small = await place(office, office.buyer, [{ product_id: MASKS.productId, quantity: 1 }]);
    expect(small.status, small.text).toBe(201);
    expect(small.body.order).toMatchObject({ status: 'pending', total: expect.any(Number) });
    const unlimited = await place(office, office.approver);
    expect(unlimited.status, unlimited.text).toBe(201);
    expect(
      (await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data
        .map((order: { id: string }) => order.id)
        .sort(),
    ).toEqual([small.body.order.id, unlimited.body.order.id].sort());
  });

  it('an endpoint set up without the approval kinds gets no approval webhook, and still every order kind', async () => {
    const office = await anOffice('default');
    const request = await aRequest(office);
    const approved = await decide(office, request.id, 'approve', {
      internal_user_id: office.approver.profile.internalUserId,
    });
    expect(approved.status, approved.text).toBe(200);
    await deliverEverything(stack);
    expect(webhooksAbout([request.id, approved.body.approval_request.order_id]).map((body) => body.event)).toEqual([
      'order.created',
    ]);
  });
});

describe('GET /v1/organizations/{internalOrgId}/approval-requests and GET /v1/approval-requests/{id}', () => {
  it('lists newest first, a page at a time with starting_after, filters by status as of now, and reads one request', async () => {
    const office = await anOffice();
    const first = await aRequest(office);
    stack.clock.advance(1000);
    const second = await aRequest(office);
    stack.clock.advance(1000);
    const third = await aRequest(office);
    expect(
      (
        await decide(office, second.id, 'reject', {
          internal_user_id: office.approver.profile.internalUserId,
          reason: 'Not this month',
        })
      ).status,
    ).toBe(200);

    const page1 = await list(office, '?limit=2');
    expect(page1.status, page1.text).toBe(200);
    expect(page1.headers.get('ratelimit-limit')).toBe('300');
    expect(page1.body.data.map((request: { id: string }) => request.id)).toEqual([third.id, second.id]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await list(office, `?limit=2&starting_after=${second.id}`);
    expect(page2.body).toEqual({
      data: [expect.objectContaining({ id: first.id, status: 'pending' })],
      has_more: false,
    });

    const rejected = await list(office, '?status=rejected');
    expect(rejected.body.data).toEqual([
      expect.objectContaining({
        id: second.id,
        status: 'rejected',
        reason: 'Not this month',
        decided_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
      }),
    ]);
    expect((await list(office, '?status=pending')).body.data.map((request: { id: string }) => request.id)).toEqual([
      third.id,
      first.id,
    ]);

    const one = await stack.get(`/v1/approval-requests/${first.id.toUpperCase()}`, office.headers);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(first);

    // Seven days on, the waiting ones read as expired at their expiry, before any sweep records it.
    stack.clock.advance(7 * 24 * 3600 * 1000);
    expect((await list(office, '?status=pending')).body.data).toEqual([]);
    expect(
      (await list(office, '?status=expired')).body.data.map(
        (request: { id: string; status: string; decided_at: string }) => [
          request.id,
          request.status,
          request.decided_at,
        ],
      ),
    ).toEqual([
      [third.id, 'expired', third.expires_at],
      [first.id, 'expired', first.expires_at],
    ]);
    expect((await stack.get(`/v1/approval-requests/${first.id}`, office.headers)).body).toMatchObject({
      status: 'expired',
      decided_at: first.expires_at,
    });
  });

  it("answers another partner's organization and request as none of yours, and refuses bad queries and keys", async () => {
    const office = await anOffice();
    const other = await anOffice();
    const request = await aRequest(office);
    const elsewhere = await aRequest(other);

    // As the orders list answers it: 404 ORGANIZATION_NOT_FOUND.
    const foreign = await stack.get(`/v1/organizations/${office.internalOrgId}/approval-requests`, other.headers);
    expect(errorOf(foreign)).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND' });
    expect(errorOf(await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, other.headers))).toEqual({
      status: 404,
      code: 'ORGANIZATION_NOT_FOUND',
    });
    expect(errorOf(await stack.get(`/v1/approval-requests/${request.id}`, other.headers))).toEqual({
      status: 404,
      code: 'APPROVAL_REQUEST_NOT_FOUND',
    });
    expect(errorOf(await stack.get(`/v1/approval-requests/${randomUUID()}`, office.headers))).toEqual({
      status: 404,
      code: 'APPROVAL_REQUEST_NOT_FOUND',
    });
    expect(errorOf(await stack.get('/v1/approval-requests/not-a-request', office.headers))).toEqual({
      status: 404,
      code: 'APPROVAL_REQUEST_NOT_FOUND',
    });

    const badStatus = await list(office, '?status=approvedish&limit=0');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.details.map((detail: { path: string[] }) => detail.path.join('.')).sort()).toEqual([
      'limit',
      'status',
    ]);
    const cursor = await list(office, `?starting_after=${elsewhere.id}`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.details).toEqual([
      expect.objectContaining({ code: 'INVALID_CURSOR', path: ['starting_after'] }),
    ]);

    const writer = await stack.createPartner({ scopes: ['orders:write'] });
    expect(errorOf(await list(office, '', { Authorization: `Bearer ${writer.apiKey}` }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
  });
});

describe('POST /v1/sandbox/approval-requests/{id}/approve and /reject', () => {
  it("approve places the submitted order in the requester's name; approval.decided and order.created with approved_by follow", async () => {
    const office = await anOffice();
    const request = await aRequest(office);
    stack.clock.advance(60_000);
    const response = await decide(office, request.id, 'approve', {
      internal_user_id: office.approver.profile.internalUserId,
      reason: 'ignored on approve',
    });
    expect(response.status, response.text).toBe(200);
    const approved = response.body.approval_request;
    expect(approved).toEqual({
      ...request,
      status: 'approved',
      decided_at: stack.clock.now().toISOString(),
      decided_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
      order_id: expect.any(String),
    });

    const order = await stack.get(`/v1/orders/${approved.order_id}`, office.headers);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      internal_user_id: office.buyer.profile.internalUserId,
      user_email: office.buyer.profile.email,
      approved_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
      items: request.items,
      total: request.total,
      po_number: 'PO-9',
      status: 'pending',
    });

    await deliverEverything(stack);
    const bodies = webhooksAbout([request.id, approved.order_id]);
    expect(bodies.map((body) => body.event).sort()).toEqual([
      'approval.decided',
      'approval.requested',
      'order.created',
    ]);
    expect(ApprovalDecidedData.parse(bodies.find((body) => body.event === 'approval.decided')!.data)).toEqual({
      approval_request_id: request.id,
      partner_org_id: office.internalOrgId,
      decision: 'approved',
      decided_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
      order_id: approved.order_id,
      decided_at: approved.decided_at,
    });
    expect(
      DELIVERED_ORDER_EVENT_DATA['order.created'].parse(bodies.find((body) => body.event === 'order.created')!.data),
    ).toMatchObject({
      order_id: approved.order_id,
      internal_user_id: office.buyer.profile.internalUserId,
      approved_by: { internal_user_id: office.approver.profile.internalUserId, email: office.approver.profile.email },
    });

    // Decided once: a second decision is told what became of it, and places nothing.
    const again = await decide(office, request.id, 'approve', {
      internal_user_id: office.limitedApprover.profile.internalUserId,
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'APPROVAL_NOT_PENDING',
      data: { approval_request_id: request.id, status: 'approved' },
    });
    expect(
      errorOf(
        await decide(office, request.id, 'reject', {
          internal_user_id: office.approver.profile.internalUserId,
          reason: 'Too late',
        }),
      ),
    ).toEqual({ status: 409, code: 'APPROVAL_NOT_PENDING' });
    expect(
      (await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data,
    ).toHaveLength(1);
  });

  it('reject needs a reason of 1-500 characters, keeps it, orders nothing, and sends approval.decided with it', async () => {
    const office = await anOffice();
    const request = await aRequest(office);
    const approver = office.approver.profile.internalUserId;

    const missing = await decide(office, request.id, 'reject', { internal_user_id: approver });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ code: 'REQUIRED', path: ['reason'] }] });
    const tooLong = await decide(office, request.id, 'reject', { reason: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(
      tooLong.body.details
        .map((detail: { code: string; path: string[] }) => [detail.code, detail.path.join('.')])
        .sort(),
    ).toEqual([
      ['REQUIRED', 'internal_user_id'],
      ['TOO_LONG', 'reason'],
    ]);
    expect(errorOf(await decide(office, request.id, 'approve', {}))).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect((await stack.get(`/v1/approval-requests/${request.id}`, office.headers)).body.status).toBe('pending');

    const response = await decide(office, request.id, 'reject', {
      internal_user_id: approver,
      reason: '  Over budget this month ',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.approval_request).toMatchObject({
      status: 'rejected',
      reason: 'Over budget this month',
      order_id: null,
      decided_by: { internal_user_id: approver },
    });
    expect((await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data).toEqual(
      [],
    );
    await deliverEverything(stack);
    const decided = webhooksAbout([request.id]).find((body) => body.event === 'approval.decided')!;
    expect(ApprovalDecidedData.parse(decided.data)).toMatchObject({
      decision: 'rejected',
      reason: 'Over budget this month',
    });
  });

  it('approve takes an optional comment of at most 500 characters, keeps it and sends it in approval.decided; two approvers at once place one order', async () => {
    const office = await anOffice();
    const request = await aRequest(office);
    const approver = office.approver.profile.internalUserId;

    const tooLong = await decide(office, request.id, 'approve', {
      internal_user_id: approver,
      comment: 'x'.repeat(501),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ code: 'TOO_LONG', path: ['comment'] }],
    });
    expect(errorOf(await decide(office, request.id, 'approve', { internal_user_id: approver, comment: 42 }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    expect((await stack.get(`/v1/approval-requests/${request.id}`, office.headers)).body.status).toBe('pending');

    // Two approvers at once, each with its own comment: one wins, the other is told, one order.
    const [first, second] = await Promise.all([
      decide(office, request.id, 'approve', { internal_user_id: approver, comment: ' Approved for the flu season ' }),
      decide(office, request.id, 'approve', {
        internal_user_id: office.limitedApprover.profile.internalUserId,
        comment: 'Fine by me',
      }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const won = first.status === 200 ? first : second;
    const lost = first.status === 200 ? second : first;
    expect(lost.body).toMatchObject({ code: 'APPROVAL_NOT_PENDING', data: { status: 'approved' } });
    const winner = won === first ? 'Approved for the flu season' : 'Fine by me';
    expect(won.body.approval_request).toMatchObject({ status: 'approved', comment: winner });
    expect((await stack.get(`/v1/approval-requests/${request.id}`, office.headers)).body.comment).toBe(winner);
    expect(
      (await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data,
    ).toHaveLength(1);
    await deliverEverything(stack);
    const decided = webhooksAbout([request.id]).filter((body) => body.event === 'approval.decided');
    expect(decided).toHaveLength(1);
    expect(ApprovalDecidedData.parse(decided[0]!.data)).toMatchObject({ decision: 'approved', comment: winner });

    // A blank comment is none.
    const other = await aRequest(office);
    const blank = await decide(office, other.id, 'approve', { internal_user_id: approver, comment: '   ' });
    expect(blank.status, blank.text).toBe(200);
    expect(blank.body.approval_request.comment).toBeNull();
  });

  it("applies the module's rules: an approver of the request's organization who can sign in, not the requester, while it waits", async () => {
    const office = await anOffice();
    const request = await aRequest(office);
    const asUser = (internalUserId: string) =>
      decide(office, request.id, 'approve', { internal_user_id: internalUserId });

    // A buyer is no approver, its own request or not.
    expect(errorOf(await asUser(office.buyer.profile.internalUserId))).toEqual({
      status: 403,
      code: 'APPROVAL_FORBIDDEN',
    });
    // Only the request's organization is searched: an approver of another organization of the partner is none of its users.
    const elsewhere = await provisionProfile(
      stack.deps,
      office.partnerId,
      aSetupBody({
        user: { firstName: 'Mary', lastName: 'Jackson', email: 'mary@other.test', role: 'approver' } as never,
      }),
    );
    expect(errorOf(await asUser(elsewhere.profile.internalUserId))).toEqual({ status: 404, code: 'PROFILE_NOT_FOUND' });
    expect(errorOf(await asUser('nobody'))).toEqual({ status: 404, code: 'PROFILE_NOT_FOUND' });
    // An approver of its own request above its own limit: another approver decides it.
    const own = await aRequest(office, office.limitedApprover);
    expect(
      errorOf(
        await decide(office, own.id, 'reject', {
          internal_user_id: office.limitedApprover.profile.internalUserId,
          reason: 'mine',
        }),
      ),
    ).toEqual({
      status: 403,
      code: 'SELF_APPROVAL_FORBIDDEN',
    });
    // A buyer deciding someone else's request, and an approver demoted to buyer: forbidden, not "not found".
    expect(
      errorOf(await decide(office, own.id, 'approve', { internal_user_id: office.buyer.profile.internalUserId })),
    ).toEqual({ status: 403, code: 'APPROVAL_FORBIDDEN' });
    await stack.deps.functions.setup.partnerUsers.update(
      office.partnerId,
      office.internalOrgId,
      office.limitedApprover.profile.internalUserId,
      { role: 'buyer' },
    );
    expect(
      errorOf(
        await decide(office, request.id, 'reject', {
          internal_user_id: office.limitedApprover.profile.internalUserId,
          reason: 'demoted',
        }),
      ),
    ).toEqual({ status: 403, code: 'APPROVAL_FORBIDDEN' });
    // A deactivated approver cannot sign in to decide, so it cannot here either.
    await stack.deps.functions.setup.partnerUsers.update(
      office.partnerId,
      office.internalOrgId,
      office.limitedApprover.profile.internalUserId,
      { active: false },
    );
    expect(errorOf(await asUser(office.limitedApprover.profile.internalUserId))).toEqual({
      status: 400,
      code: 'PROFILE_NOT_LINKED',
    });
    // Unknown, not a UUID, or another partner's: none of yours.
    const other = await anOffice();
    for (const id of [randomUUID(), 'not-a-request']) {
      expect(
        errorOf(await decide(office, id, 'approve', { internal_user_id: office.approver.profile.internalUserId })),
      ).toEqual({ status: 404, code: 'APPROVAL_REQUEST_NOT_FOUND' });
    }
    expect(
      errorOf(await decide(other, request.id, 'approve', { internal_user_id: other.approver.profile.internalUserId })),
    ).toEqual({ status: 404, code: 'APPROVAL_REQUEST_NOT_FOUND' });
    expect((await stack.get(`/v1/approval-requests/${request.id}`, office.headers)).body.status).toBe('pending');

    // Past its expiry it no longer waits, whether or not the sweep has recorded it.
    stack.clock.advance(7 * 24 * 3600 * 1000);
    const late = await asUser(office.approver.profile.internalUserId);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'APPROVAL_NOT_PENDING', data: { status: 'expired' } });
    expect((await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data).toEqual(
      [],
    );
  });

  it('with an Idempotency-Key, a retry answers the first decision again and places one order; the key with another body is refused', async () => {
    const office = await anOffice();
    const request = await aRequest(office);
    const body = { internal_user_id: office.approver.profile.internalUserId };
    const key = { 'Idempotency-Key': `approve-${request.id}` };

    const first = await decide(office, request.id, 'approve', body, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await decide(office, request.id, 'approve', body, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(
      (await stack.get(`/v1/orders?internal_org_id=${office.internalOrgId}`, office.headers)).body.data.map(
        (order: { id: string }) => order.id,
      ),
    ).toEqual([first.body.approval_request.order_id]);

    const reused = await decide(
      office,
      request.id,
      'approve',
      { internal_user_id: office.limitedApprover.profile.internalUserId },
      key,
    );
    expect(errorOf(reused)).toEqual({ status: 400, code: 'IDEMPOTENCY_KEY_REUSED' });
    // The same key for another request, or another action on this one, is refused too: never the first answer.
    const other = await aRequest(office);
    expect(errorOf(await decide(office, other.id, 'approve', body, key))).toEqual({
      status: 400,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(errorOf(await decide(office, request.id, 'reject', body, key))).toEqual({
      status: 400,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect((await stack.get(`/v1/approval-requests/${other.id}`, office.headers)).body).toMatchObject({
      status: 'pending',
    });
    // Without the key, the retry is told the first one happened.
    expect((await decide(office, request.id, 'approve', body)).body).toMatchObject({
      code: 'APPROVAL_NOT_PENDING',
      data: { status: 'approved' },
    });
  });
});
