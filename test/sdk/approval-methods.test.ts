/**
 * The SDK's approval request methods: against a running local sandbox stack each resolves
 * to the documented body (validated against docs/openapi.json), `approvalRequests.list`
 * walks every page, and the failures a partner branches on reject with their typed errors;
 * against a recording fetch, the decisions carry one Idempotency-Key their retries reuse;
 * and a verified approval webhook narrows by its `event`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { signWebhookBody } from '../../functions/webhooks/webhook-signature';
import {
  type ApprovalDecision,
  type ApprovalRequest,
  constructEvent,
  PartnerClient,
  PartnerConflictError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerInvalidRequestError,
} from '../../sdk/src/index';
import { API_DOCUMENT, schemaProblems } from '../support/api-document';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;
const documented = (schema: string, value: unknown) =>
  schemaProblems({ $ref: `#/components/schemas/${schema}` }, value);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error as Record<string, unknown>,
  );

/** A client of a new partner whose organization has a buyer with a $1 limit and an approver, and the URLs it asked for. */
async function anOffice() {
  const partner = await stack.createPartner();
  const body = aSetupBody();
  const person = (prefix: string, extra: Record<string, unknown>) =>
    provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `${prefix}-${body.internalUserId}`,
      user: { firstName: 'Ada', lastName: 'Tester', email: `${prefix}.${body.internalUserId}@acme.test`, ...extra },
    });
  const buyer = await person('buyer', { orderLimit: 1 });
  const approver = await person('approver', { role: 'approver' });
  const asked: URL[] = [];
  const client = new PartnerClient({
    apiKey: partner.apiKey,
    baseUrl: stack.url,
    sleep: async () => {},
    fetch: (input, init) => {
      asked.push(new URL(String(input)));
      return fetch(input, init);
    },
  });
  const request = async (): Promise<ApprovalRequest> => {
    const outcome = await client.sandbox.orders.create({
      internalUserId: buyer.profile.internalUserId,
      items: [{ productId: PRODUCT_ID, quantity: 2 }],
    });
    expect(documented('ApprovalRequestChange', outcome)).toEqual([]);
    if (!('approval_request' in outcome)) throw new Error('a buyer above its limit got an order');
    return outcome.approval_request;
  };
  return { client, asked, internalOrgId: body.internalOrgId, buyer, approver, request };
}

describe('PartnerClient approval request methods on the local stack', () => {
  it('sandbox.orders.create above the limit resolves to the approval request; approve and reject resolve to the documented change', async () => {
    const { client, approver, request } = await anOffice();
    const pending = await request();
    expect(pending).toMatchObject({ object: 'approval_request', status: 'pending', order_id: null });

    const approved = await client.sandbox.approvalRequests.approve(pending.id, {
      internalUserId: approver.profile.internalUserId,
      comment: 'For the flu season',
    });
    expect(documented('ApprovalRequestChange', approved)).toEqual([]);
    expect(approved.approval_request).toMatchObject({
      id: pending.id,
      status: 'approved',
      comment: 'For the flu season',
      decided_by: { internal_user_id: approver.profile.internalUserId },
    });
    const order = await client.orders.retrieve(approved.approval_request.order_id!);
    expect(order.total).toBe(pending.total);

    const other = await request();
    const rejected = await client.sandbox.approvalRequests.reject(other.id, {
      internalUserId: approver.profile.internalUserId,
      reason: 'Over budget',
    });
    expect(rejected.approval_request).toMatchObject({ status: 'rejected', reason: 'Over budget', order_id: null });
  });

  it('approvalRequests.list iterates over every page of a status, asking each next page with starting_after; retrieve reads one', async () => {
    const { client, asked, internalOrgId, request } = await anOffice();
    const made: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      made.push((await request()).id);
      stack.clock.advance(1000);
    }
    asked.length = 0;
    const listed: ApprovalRequest[] = [];
    for await (const each of client.approvalRequests.list({ internalOrgId, status: 'pending', pageSize: 2 }))
      listed.push(each);
    expect(listed.map((each) => each.id)).toEqual([...made].reverse());
    for (const each of listed) expect(documented('ApprovalRequest', each)).toEqual([]);
    expect(
      asked.map((url) => [url.pathname, url.searchParams.get('status'), url.searchParams.get('starting_after')]),
    ).toEqual([
      [`/v1/organizations/${internalOrgId}/approval-requests`, 'pending', null],
      [`/v1/organizations/${internalOrgId}/approval-requests`, 'pending', listed[1]!.id],
    ]);
    expect(await client.approvalRequests.retrieve(made[0]!)).toEqual(listed[2]);
  });

  it('rejects with the typed errors a partner branches on', async () => {
    const { client, buyer, approver, request } = await anOffice();
    const pending = await request();
    const self = await failureOf(
      client.sandbox.approvalRequests.approve(pending.id, { internalUserId: buyer.profile.internalUserId }),
    );
    expect(self).toBeInstanceOf(PartnerPermissionError);
    expect(self).toMatchObject({ status: 403, code: 'APPROVAL_FORBIDDEN' });
    const reason = await failureOf(
      client.sandbox.approvalRequests.reject(pending.id, {
        internalUserId: approver.profile.internalUserId,
        reason: ' ',
      }),
    );
    expect(reason).toBeInstanceOf(PartnerInvalidRequestError);
    expect(reason).toMatchObject({ status: 400, details: [expect.objectContaining({ path: ['reason'] })] });
    const unknown = await failureOf(client.approvalRequests.retrieve(randomUUID()));
    expect(unknown).toBeInstanceOf(PartnerNotFoundError);
    expect(unknown).toMatchObject({ code: 'APPROVAL_REQUEST_NOT_FOUND' });

    await client.sandbox.approvalRequests.reject(pending.id, {
      internalUserId: approver.profile.internalUserId,
      reason: 'No',
    });
    const late = await failureOf(
      client.sandbox.approvalRequests.approve(pending.id, { internalUserId: approver.profile.internalUserId }),
    );
    expect(late).toBeInstanceOf(PartnerConflictError);
    expect(late).toMatchObject({
      status: 409,
      code: 'APPROVAL_NOT_PENDING',
      body: expect.objectContaining({ data: { approval_request_id: pending.id, status: 'rejected' } }),
    });
  });
});

describe('SDK calls of the approval request routes', () => {
  it('a decision sends its snake_case body with one Idempotency-Key, reused by its retries after a 500; your own key when given', async () => {
    const sent: { url: URL; headers: Headers; body: unknown }[] = [];
    const client = new PartnerClient({
      apiKey: 'sk_test_key',
      baseUrl: 'https://sandbox-api.example-procurement.com',
      sleep: async () => {},
      fetch: async (input, init) => {
        sent.push({
          url: new URL(String(input)),
          headers: new Headers(init?.headers),
          body: JSON.parse(String(init?.body)),
        });
        const failing = sent.length === 1;
        const body = failing
          ? { error: 'Internal Server Error', message: 'boom', code: 'INTERNAL_ERROR', details: [] }
          : { success: true, approval_request: { id: 'r-1', status: 'rejected' } };
        return new Response(JSON.stringify(body), {
          status: failing ? 500 : 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
    });
    const rejected = await client.sandbox.approvalRequests.reject('r-1', {
      internalUserId: 'u-2',
      reason: 'Over budget',
    });
    expect(rejected.approval_request.status).toBe('rejected');
    expect(sent.map((request) => [request.url.pathname, request.body])).toEqual([
      ['/v1/sandbox/approval-requests/r-1/reject', { internal_user_id: 'u-2', reason: 'Over budget' }],
      ['/v1/sandbox/approval-requests/r-1/reject', { internal_user_id: 'u-2', reason: 'Over budget' }],
    ]);
    const [first, retry] = sent.map((request) => request.headers.get('idempotency-key'));
    expect(first).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(retry).toBe(first);

    await client.sandbox.approvalRequests.approve('r-1', { internalUserId: 'u-2' }, { idempotencyKey: 'approve-r-1' });
    expect(sent.at(-1)).toMatchObject({ body: { internal_user_id: 'u-2' } });
    expect(sent.at(-1)!.headers.get('idempotency-key')).toBe('approve-r-1');
  });
});

describe('webhooks.constructEvent with the approval kinds', () => {
  it('verifies an approval.decided and narrows it by `event` to its data', () => {
    const secret = `whsec_${Buffer.from('b'.repeat(32)).toString('base64')}`;
    const example = (API_DOCUMENT.webhooks as Record<string, any>)['approval.decided'].post.requestBody.content[
      'application/json'
    ].example;
    const body = JSON.stringify(example);
    const event = constructEvent(body, { 'x-service-signature': signWebhookBody(body, secret) }, secret);
    if (event.event !== 'approval.decided') throw new Error(`got ${event.event}`);
    expectTypeOf(event.data.decision).toEqualTypeOf<ApprovalDecision>();
    expectTypeOf(event.data).not.toHaveProperty('status');
    expect(event.data).toMatchObject({ decision: 'approved', order_id: expect.any(String) });
  });
});
