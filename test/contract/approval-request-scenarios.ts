/**
 * How to provoke every documented status of the approval request routes (the list, one
 * request, and the sandbox decisions) on a local test stack, for the contract suite. The
 * requests are made as a partner's CI makes them: a sandbox order above the buyer's limit.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import type { ApiEndpointName } from '../../functions/routes';
import { whileFailing } from '../support/fault-plan';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { exhaustRateLimit } from '../support/rate-limit';
import type { TestResponse, TestStack } from '../support/test-stack';
import type { Scenario, Scenarios } from './order-api-scenarios';

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;

export function approvalRequestScenarios(stackOf: () => TestStack): Scenarios {
  const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

  /** A partner with an organization of a buyer whose order limit is $1 and an approver. */
  async function anOffice() {
    const stack = stackOf();
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
    return { ...partner, headers: bearer(partner.apiKey), buyer, approver, internalOrgId: body.internalOrgId };
  }
  type Office = Awaited<ReturnType<typeof anOffice>>;

  /** A pending request of the office's buyer, through the sandbox order route. */
  async function aRequest(office: Office): Promise<string> {
    const placed = await stackOf().post(
      '/v1/sandbox/orders',
      { internal_user_id: office.buyer.profile.internalUserId, items: [{ product_id: PRODUCT_ID, quantity: 2 }] },
      office.headers,
    );
    expect(placed.status, placed.text).toBe(202);
    return placed.body.approval_request.id as string;
  }

  const listPath = (office: Office, query = '') =>
    `/v1/organizations/${office.internalOrgId}/approval-requests${query}`;
  const spendPath = (office: Office, query = '') => `/v1/organizations/${office.internalOrgId}/spend${query}`;
  const decide = (office: Office, id: string, action: 'approve' | 'reject', body: unknown) =>
    stackOf().post(`/v1/sandbox/approval-requests/${id}/${action}`, body, office.headers);
  const byApprover = (office: Office, action: 'approve' | 'reject') => ({
    internal_user_id: office.approver.profile.internalUserId,
    ...(action === 'reject' ? { reason: 'Over budget' } : {}),
  });

  const keyWith = async (...scopes: ('organization:write' | 'session:write' | 'orders:read' | 'orders:write')[]) =>
    bearer((await stackOf().createPartner({ scopes })).apiKey);

  async function rateLimited(
    endpoint: ApiEndpointName,
    limit: number,
    send: (office: Office) => Promise<TestResponse>,
  ) {
    const office = await anOffice();
    await exhaustRateLimit(stackOf(), office.partnerId, endpoint, limit);
    return send(office);
  }

  const withOrdersFailing = (send: () => Promise<TestResponse>) =>
    whileFailing(stackOf(), 'dynamodb', (call) => call.target.split('+').includes('orders'), send);

  const decisionScenarios = (action: 'approve' | 'reject'): Record<number, Scenario[]> => ({
    200: [
      [
        `${action}d by an approver`,
        async () => {
          const office = await anOffice();
          return decide(office, await aRequest(office), action, byApprover(office, action));
        },
      ],
      [
        'a replay of the same Idempotency-Key',
        async () => {
          const office = await anOffice();
          const id = await aRequest(office);
          const headers = { ...office.headers, 'Idempotency-Key': `contract-${action}` };
          await stackOf().post(`/v1/sandbox/approval-requests/${id}/${action}`, byApprover(office, action), headers);
          const replay = await stackOf().post(
            `/v1/sandbox/approval-requests/${id}/${action}`,
            byApprover(office, action),
            headers,
          );
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          return replay;
        },
      ],
    ],
    400: [
      [
        'no internal_user_id',
        async () => {
          const office = await anOffice();
          return decide(office, await aRequest(office), action, action === 'reject' ? { reason: 'Over budget' } : {});
        },
      ],
      ['malformed JSON', async () => decide(await anOffice(), randomUUID(), action, '{')],
      [
        'a deactivated approver',
        async () => {
          const office = await anOffice();
          const id = await aRequest(office);
          await stackOf().deps.functions.setup.partnerUsers.update(
            office.partnerId,
            office.internalOrgId,
            office.approver.profile.internalUserId,
            { active: false },
          );
          return decide(office, id, action, byApprover(office, action));
        },
      ],
      ...(action === 'reject'
        ? ([
            [
              'a reason over 500 characters',
              async () =>
                decide(await anOffice(), randomUUID(), action, { internal_user_id: 'u-1', reason: 'x'.repeat(501) }),
            ],
          ] as Scenario[])
        : []),
    ],
    401: [
      [
        'no key',
        async () =>
          stackOf().post(`/v1/sandbox/approval-requests/${randomUUID()}/${action}`, {
            internal_user_id: 'u-1',
            reason: 'r',
          }),
      ],
    ],
    403: [
      [
        'a key without orders:write',
        async () =>
          stackOf().post(
            `/v1/sandbox/approval-requests/${randomUUID()}/${action}`,
            { internal_user_id: 'u-1', reason: 'r' },
            await keyWith('orders:read'),
          ),
      ],
      [
        'a buyer deciding (APPROVAL_FORBIDDEN)',
        async () => {
          const office = await anOffice();
          return decide(office, await aRequest(office), action, {
            ...byApprover(office, action),
            internal_user_id: office.buyer.profile.internalUserId,
          });
        },
      ],
      [
        'an approver deciding its own request (SELF_APPROVAL_FORBIDDEN)',
        async () => {
          const office = await anOffice();
          await stackOf().deps.functions.setup.partnerUsers.update(
            office.partnerId,
            office.internalOrgId,
            office.buyer.profile.internalUserId,
            { role: 'approver' },
          );
          return decide(office, await aRequest(office), action, {
            ...byApprover(office, action),
            internal_user_id: office.buyer.profile.internalUserId,
          });
        },
      ],
    ],
    404: [
      [
        'an unknown request',
        async () => {
          const office = await anOffice();
          return decide(office, randomUUID(), action, byApprover(office, action));
        },
      ],
      [
        'an id that is not a UUID',
        async () => {
          const office = await anOffice();
          return decide(office, 'not-a-request', action, byApprover(office, action));
        },
      ],
      [
        'no such user in the organization (PROFILE_NOT_FOUND)',
        async () => {
          const office = await anOffice();
          return decide(office, await aRequest(office), action, {
            ...byApprover(office, action),
            internal_user_id: 'nobody',
          });
        },
      ],
    ],
    409: [
      [
        'APPROVAL_NOT_PENDING',
        async () => {
          const office = await anOffice();
          const id = await aRequest(office);
          expect((await decide(office, id, action, byApprover(office, action))).status).toBe(200);
          return decide(office, id, action, byApprover(office, action));
        },
      ],
      ...(action === 'approve'
        ? ([
            [
              'APPROVAL_CANNOT_BE_PLACED: the requester deactivated',
              async () => {
                const office = await anOffice();
                const id = await aRequest(office);
                await stackOf().deps.functions.setup.partnerUsers.update(
                  office.partnerId,
                  office.internalOrgId,
                  office.buyer.profile.internalUserId,
                  { active: false },
                );
                const response = await decide(office, id, action, byApprover(office, action));
                expect(response.body.code).toBe('APPROVAL_CANNOT_BE_PLACED');
                return response;
              },
            ],
          ] as Scenario[])
        : []),
    ],
    429: [
      [
        'over 100 a minute (approve and reject together)',
        async () =>
          rateLimited('sandbox-approval-decision', 100, (office) =>
            decide(office, randomUUID(), action, byApprover(office, action)),
          ),
      ],
    ],
    500: [
      [
        'the order store down',
        async () => {
          const office = await anOffice();
          const id = await aRequest(office);
          return withOrdersFailing(() => decide(office, id, action, byApprover(office, action)));
        },
      ],
    ],
  });

  return {
    'GET /v1/organizations/{internalOrgId}/approval-requests': {
      200: [
        [
          'a first page with more to come',
          async () => {
            const office = await anOffice();
            await aRequest(office);
            const id = await aRequest(office);
            expect((await decide(office, id, 'approve', byApprover(office, 'approve'))).status).toBe(200);
            const response = await stackOf().get(listPath(office, '?limit=1'), office.headers);
            expect(response.body.has_more).toBe(true);
            return response;
          },
        ],
        [
          'an organization without requests',
          async () => {
            const office = await anOffice();
            return stackOf().get(listPath(office, '?status=pending'), office.headers);
          },
        ],
      ],
      400: [
        [
          'an unknown status',
          async () => {
            const office = await anOffice();
            return stackOf().get(listPath(office, '?status=maybe'), office.headers);
          },
        ],
        [
          'starting_after of another organization',
          async () => {
            const office = await anOffice();
            const other = await anOffice();
            return stackOf().get(listPath(office, `?starting_after=${await aRequest(other)}`), office.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get('/v1/organizations/acme-1/approval-requests')]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get('/v1/organizations/acme-1/approval-requests', await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown organization',
          async () => stackOf().get('/v1/organizations/nobody/approval-requests', (await anOffice()).headers),
        ],
        [
          "another partner's organization",
          async () => stackOf().get(listPath(await anOffice()), (await anOffice()).headers),
        ],
      ],
      429: [
        [
          'over 300 a minute',
          async () =>
            rateLimited('approval-request-list', 300, (office) => stackOf().get(listPath(office), office.headers)),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const office = await anOffice();
            return withOrdersFailing(() => stackOf().get(listPath(office), office.headers));
          },
        ],
      ],
    },
    'GET /v1/approval-requests/{approval_request_id}': {
      200: [
        [
          'a pending request',
          async () => {
            const office = await anOffice();
            return stackOf().get(`/v1/approval-requests/${await aRequest(office)}`, office.headers);
          },
        ],
        [
          'an approved request',
          async () => {
            const office = await anOffice();
            const id = await aRequest(office);
            expect((await decide(office, id, 'approve', byApprover(office, 'approve'))).status).toBe(200);
            return stackOf().get(`/v1/approval-requests/${id}`, office.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get(`/v1/approval-requests/${randomUUID()}`)]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get(`/v1/approval-requests/${randomUUID()}`, await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown request',
          async () => stackOf().get(`/v1/approval-requests/${randomUUID()}`, (await anOffice()).headers),
        ],
        [
          "another partner's request",
          async () =>
            stackOf().get(`/v1/approval-requests/${await aRequest(await anOffice())}`, (await anOffice()).headers),
        ],
      ],
      429: [
        [
          'over 300 a minute',
          async () =>
            rateLimited('approval-request-get', 300, (office) =>
              stackOf().get(`/v1/approval-requests/${randomUUID()}`, office.headers),
            ),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const office = await anOffice();
            const id = await aRequest(office);
            return withOrdersFailing(() => stackOf().get(`/v1/approval-requests/${id}`, office.headers));
          },
        ],
      ],
    },
    // The spend report reads the same organization's orders: its scenarios share the office above.
    'GET /v1/organizations/{internalOrgId}/spend': {
      200: [
        [
          'a month with an approved order',
          async () => {
            const office = await anOffice();
            const id = await aRequest(office);
            expect((await decide(office, id, 'approve', byApprover(office, 'approve'))).status).toBe(200);
            const response = await stackOf().get(spendPath(office), office.headers);
            expect(response.body.order_count).toBe(1);
            return response;
          },
        ],
        [
          'a month without orders',
          async () => {
            const office = await anOffice();
            return stackOf().get(spendPath(office, '?month=2020-02'), office.headers);
          },
        ],
      ],
      400: [
        [
          'a malformed month',
          async () => {
            const office = await anOffice();
            return stackOf().get(spendPath(office, '?month=2026-13'), office.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get('/v1/organizations/acme-1/spend')]],
      403: [
        [
          'a key without orders:read',
          async () => stackOf().get('/v1/organizations/acme-1/spend', await keyWith('orders:write')),
        ],
      ],
      404: [
        [
          'an unknown organization',
          async () => stackOf().get('/v1/organizations/nobody/spend', (await anOffice()).headers),
        ],
        [
          "another partner's organization",
          async () => stackOf().get(spendPath(await anOffice()), (await anOffice()).headers),
        ],
      ],
      429: [
        [
          'over 300 a minute',
          async () =>
            rateLimited('organization-spend', 300, (office) => stackOf().get(spendPath(office), office.headers)),
        ],
      ],
      500: [
        [
          'the order store down',
          async () => {
            const office = await anOffice();
            return withOrdersFailing(() => stackOf().get(spendPath(office), office.headers));
          },
        ],
      ],
    },
    'POST /v1/sandbox/approval-requests/{approval_request_id}/approve': decisionScenarios('approve'),
    'POST /v1/sandbox/approval-requests/{approval_request_id}/reject': decisionScenarios('reject'),
  };
}
