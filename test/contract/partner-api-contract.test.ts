/**
 * The running service against its published document: every status of every route in
 * docs/openapi.json is provoked on a local stack, and the response (status, body,
 * documented headers, and no undocumented ones) is validated with ajv (draft 2020-12)
 * against the document. A response field the document lacks, a documented field the
 * response lacks, a status nobody documented or a documented status nobody can provoke
 * all fail here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { DOCUMENTED_ROUTES, responseProblems } from '../support/api-document';
import { FaultyPayments, FaultySalesTax } from '../support/fault-injection';
import { whileFailing } from '../support/fault-plan';
import { exhaustRateLimit } from '../support/rate-limit';
import { approvalRequestScenarios } from './approval-request-scenarios';
import { invoiceScenarios } from './invoice-scenarios';
import { orderApiScenarios, type Scenario } from './order-api-scenarios';
import { organizationChangeScenarios } from './organization-change-scenarios';
import { webhookDeliveriesScenarios } from './webhook-deliveries-scenarios';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const SETUP = 'POST /v1/organizations/setup';
const HANDSHAKE = 'POST /v1/partner/handshake';
const WEBHOOK_TEST = 'POST /v1/webhooks/test';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const xApiKey = (key: string) => ({ 'X-API-Key': key });

const payments = new FaultyPayments();
const salesTax = new FaultySalesTax();
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack({ payments, salesTax });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

const partner = () => stack.createPartner();
const setup = (apiKey: string, body: unknown, headers: Record<string, string> = {}) =>
  stack.post('/v1/organizations/setup', body, { ...bearer(apiKey), ...headers });
const handshake = (apiKey: string, body: unknown) => stack.post('/v1/partner/handshake', body, xApiKey(apiKey));

/** A partner with one provisioned user. */
async function partnerWithUser() {
  const created = await partner();
  const body = aSetupRequest().build();
  const response = await setup(created.apiKey, body);
  expect(response.status).toBe(200);
  return { ...created, body, profileId: response.body.data.profile.id as string };
}

/** A partner whose webhook endpoint (every kind unless `events`) is a live receiver. */
async function partnerWithWebhook(events?: string) {
  const created = await partner();
  await webhookSet(stack.deps, { partner: created.partnerId, url: receiver.url, ...(events ? { events } : {}) });
  return created;
}
const sendTest = (apiKey: string, body: unknown) => stack.post('/v1/webhooks/test', body, bearer(apiKey));

const SCENARIOS: Record<string, Record<number, Scenario[]>> = {
  [SETUP]: {
    200: [
      ['a new organization', async () => setup((await partner()).apiKey, aSetupRequest().build())],
      [
        'a replay of the same Idempotency-Key',
        async () => {
          const { apiKey } = await partner();
          const body = aSetupRequest().build();
          await setup(apiKey, body, { 'Idempotency-Key': 'contract-replay' });
          const replay = await setup(apiKey, body, { 'Idempotency-Key': 'contract-replay' });
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          return replay;
        },
      ],
    ],
    400: [
      [
        'field rules',
        async () =>
          setup(
            (await partner()).apiKey,
            aSetupRequest()
              .forUser('u-1', { email: 'not-an-email' })
              .with({ shippingLocations: [{}] })
              .build(),
          ),
      ],
      ['malformed JSON', async () => setup((await partner()).apiKey, '{')],
      [
        'an Idempotency-Key reused with another body',
        async () => {
          const { apiKey } = await partner();
          await setup(apiKey, aSetupRequest().build(), { 'Idempotency-Key': 'contract-reused' });
          return setup(apiKey, aSetupRequest().build(), { 'Idempotency-Key': 'contract-reused' });
        },
      ],
    ],
    401: [
      ['no key', async () => stack.post('/v1/organizations/setup', aSetupRequest().build())],
      [
        'the key in X-API-Key',
        async () => stack.post('/v1/organizations/setup', aSetupRequest().build(), xApiKey((await partner()).apiKey)),
      ],
    ],
    403: [
      [
        'a key without organization:write',
        async () => setup((await stack.createPartner({ scopes: ['session:write'] })).apiKey, aSetupRequest().build()),
      ],
    ],
    409: [
      [
        'USER_ALREADY_EXISTS',
        async () => {
          const { apiKey, body } = await partnerWithUser();
          return setup(apiKey, body);
        },
      ],
      [
        'IDEMPOTENCY_KEY_IN_USE',
        async () => {
          const { apiKey } = await partner();
          const body = aSetupRequest().build();
          const hold = payments.holdNextCall();
          const first = setup(apiKey, body, { 'Idempotency-Key': 'contract-in-flight' });
          await hold.entered;
          const second = await setup(apiKey, body, { 'Idempotency-Key': 'contract-in-flight' });
          hold.release();
          await first;
          return second;
        },
      ],
    ],
    429: [
      [
        'over 100 a minute',
        async () => {
          const { apiKey, partnerId } = await partner();
          await exhaustRateLimit(stack, partnerId, 'setup', 100);
          return setup(apiKey, aSetupRequest().build());
        },
      ],
    ],
    500: [
      [
        'the payment provider down',
        async () => {
          const { apiKey } = await partner();
          payments.failNextCall();
          return setup(apiKey, aSetupRequest().build());
        },
      ],
    ],
  },
  [HANDSHAKE]: {
    200: [
      [
        'by internal_user_id',
        async () => {
          const { apiKey, body } = await partnerWithUser();
          return handshake(apiKey, { internal_user_id: body.internalUserId, internal_org_id: body.internalOrgId });
        },
      ],
      [
        'by profile_id',
        async () => {
          const { apiKey, profileId } = await partnerWithUser();
          return handshake(apiKey, { profile_id: profileId });
        },
      ],
    ],
    400: [
      ['neither identifier', async () => handshake((await partner()).apiKey, {})],
      ['malformed JSON', async () => handshake((await partner()).apiKey, '{')],
      [
        'a disabled profile',
        async () => {
          const { apiKey, partnerId, profileId } = await partnerWithUser();
          await stack.deps.profileAdmin.disable(partnerId as PartnerId, profileId as ProfileId);
          return handshake(apiKey, { profile_id: profileId });
        },
      ],
    ],
    401: [
      ['an unknown key', async () => handshake(`sk_test_${'0'.repeat(64)}`, { internal_user_id: 'u-1' })],
      [
        'the key as a Bearer token',
        async () => stack.post('/v1/partner/handshake', { internal_user_id: 'u-1' }, bearer((await partner()).apiKey)),
      ],
    ],
    403: [
      [
        'a key without session:write',
        async () =>
          handshake((await stack.createPartner({ scopes: ['organization:write'] })).apiKey, {
            internal_user_id: 'u-1',
          }),
      ],
      [
        "another partner's profile",
        async () => {
          const { profileId } = await partnerWithUser();
          return handshake((await partner()).apiKey, { profile_id: profileId });
        },
      ],
    ],
    404: [['an unknown user', async () => handshake((await partner()).apiKey, { internal_user_id: 'nobody' })]],
    429: [
      [
        'over 300 a minute',
        async () => {
          const { apiKey, partnerId } = await partner();
          await exhaustRateLimit(stack, partnerId, 'handshake', 300);
          return handshake(apiKey, { internal_user_id: 'u-1' });
        },
      ],
    ],
    500: [
      [
        'the session store down',
        async () => {
          const { apiKey, body } = await partnerWithUser();
          return whileFailing(
            stack,
            'dynamodb',
            (call) => call.operation === 'PutItem' && call.target === 'sessions',
            () => handshake(apiKey, { internal_user_id: body.internalUserId }),
          );
        },
      ],
    ],
  },
  [WEBHOOK_TEST]: {
    202: [
      ['a sample order.shipped', async () => sendTest((await partnerWithWebhook()).apiKey, { event: 'order.shipped' })],
    ],
    400: [
      ['an unknown kind', async () => sendTest((await partnerWithWebhook()).apiKey, { event: 'order.teleported' })],
      ['malformed JSON', async () => sendTest((await partnerWithWebhook()).apiKey, '{')],
    ],
    401: [
      ['no key', async () => stack.post('/v1/webhooks/test', { event: 'order.created' })],
      [
        'the key in X-API-Key',
        async () => stack.post('/v1/webhooks/test', { event: 'order.created' }, xApiKey((await partner()).apiKey)),
      ],
    ],
    403: [
      [
        'a key without orders:write',
        async () =>
          sendTest((await stack.createPartner({ scopes: ['orders:read'] })).apiKey, { event: 'order.created' }),
      ],
    ],
    409: [
      ['no webhook endpoint', async () => sendTest((await partner()).apiKey, { event: 'order.created' })],
      [
        'a kind the endpoint does not take',
        async () => sendTest((await partnerWithWebhook('order.created')).apiKey, { event: 'order.refunded' }),
      ],
    ],
    429: [
      [
        'over 60 a minute',
        async () => {
          const { apiKey, partnerId } = await partnerWithWebhook();
          const { rateLimiter } = stack.deps.functions.webhookTest;
          await Promise.all(
            Array.from({ length: 60 }, () => rateLimiter.consume(partnerId, 'webhook-test', Number.MAX_SAFE_INTEGER)),
          );
          return sendTest(apiKey, { event: 'order.created' });
        },
      ],
    ],
    500: [
      [
        'the order-events queue down',
        async () => {
          const { apiKey } = await partnerWithWebhook();
          return whileFailing(
            stack,
            'sqs',
            (call) => call.operation === 'SendMessage' && call.target.includes('order-events'),
            () => sendTest(apiKey, { event: 'order.created' }),
          );
        },
      ],
    ],
  },
  ...orderApiScenarios(() => stack, salesTax),
  ...organizationChangeScenarios(
    () => stack,
    () => payments.failNextCall(),
  ),
  ...approvalRequestScenarios(() => stack),
  ...invoiceScenarios(() => stack),
  ...webhookDeliveriesScenarios(
    () => stack,
    () => receiver.url,
  ),
};

describe('the running service answers as docs/openapi.json says', () => {
  it('exercises every documented status of every documented route, and nothing undocumented', () => {
    const documented = Object.fromEntries(DOCUMENTED_ROUTES.map((route) => [route.key, route.statuses.sort()]));
    const exercised = Object.fromEntries(
      Object.entries(SCENARIOS).map(([key, byStatus]) => [key, Object.keys(byStatus).map(Number).sort()]),
    );
    expect(exercised).toEqual(documented);
  });

  const cases = Object.entries(SCENARIOS).flatMap(([route, byStatus]) =>
    Object.entries(byStatus).flatMap(([status, scenarios]) =>
      scenarios.map(([name, run]) => ({ route, status: Number(status), name, run })),
    ),
  );

  it.each(cases)('$route answers $status ($name) exactly as documented', async ({ route, status, run }) => {
    const response = await run();
    expect(response.status, response.text).toBe(status);
    expect(responseProblems(route, response)).toEqual([]);
  });
});
