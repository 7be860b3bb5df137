/**
 * POST /v1/webhooks/test on the local sandbox: each kind's sample goes through the real
 * pipeline (order-events queue → fan-out → dispatcher) to a loopback receiver, which
 * verifies it as a partner would (the `standardwebhooks` package and an independent HMAC
 * of the contract header).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DELIVERED_WEBHOOK_EVENT_DATA } from '../../functions/domain/events/order-events';
import { WEBHOOK_EVENT_KINDS } from '../../functions/domain/events/order-event-kinds';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import { createWebhookTestHandler } from '../../functions/lambdas/webhook-test';
import { routesOn } from '../../functions/routes';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { type ReceivedWebhook, receiverPool } from '../support/webhook-receiver';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { processQueues, purgeQueues } from '../support/webhook-fixtures';

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

const headersOf = (request: ReceivedWebhook) =>
  Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));

/** What a `standardwebhooks` receiver gets; its clock is the test clock (years ahead) while it runs. */
function standardVerify(secret: string, request: ReceivedWebhook): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now: stack.clock.now() });
  try {
    return new Webhook(secret).verify(request.rawBody.toString('utf8'), headersOf(request));
  } finally {
    vi.useRealTimers();
  }
}

async function aPartnerWithEndpoint(options: { events?: string[]; organization?: boolean } = {}) {
  const receiver = await receivers.start();
  const { partnerId, apiKey } = await stack.createPartner();
  let internalOrgId: string | undefined;
  if (options.organization !== false) {
    const body = aSetupBody();
    await provisionProfile(stack.deps, partnerId, body);
    internalOrgId = body.internalOrgId;
  }
  const { secret } = await webhookSet(stack.deps, {
    partner: partnerId,
    url: receiver.url,
    ...(options.events ? { events: options.events.join(',') } : {}),
  });
  const sendTest = (event: unknown) =>
    stack.post('/v1/webhooks/test', { event }, { Authorization: `Bearer ${apiKey}` });
  return { partnerId, apiKey, receiver, secret: secret as string, internalOrgId, sendTest };
}

const SEQUENCE_OF = {
  'order.created': [1, null],
  'order.confirmed': [2, 'pending'],
  'order.shipped': [3, 'confirmed'],
  'order.delivered': [4, 'shipped'],
  'order.cancelled': [2, 'pending'],
  'order.refunded': [5, 'delivered'],
} as const;

describe('POST /v1/webhooks/test: a sample of each kind through the real pipeline', () => {
  it.each(WEBHOOK_EVENT_KINDS)(
    '%s arrives signed, marked as a test, with the delivery id the 202 answered',
    async (kind) => {
      const { receiver, secret, internalOrgId, sendTest } = await aPartnerWithEndpoint({
        events: [...WEBHOOK_EVENT_KINDS],
      });

      const answer = await sendTest(kind);
      expect(answer.status, answer.text).toBe(202);
      expect(answer.body).toEqual({ delivery_id: expect.any(String) });
      await processQueues(stack, sent);

      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests as [ReceivedWebhook];
      expect(request.headers['webhook-id']).toBe(answer.body.delivery_id);
      expect(request.headers['x-service-delivery-id']).toBe(answer.body.delivery_id);
      expect(request.headers['x-service-event']).toBe(kind);
      expect(request.headers['x-service-signature']).toBe(
        `sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}`,
      );
      const body = standardVerify(secret, request) as {
        event: string;
        timestamp: string;
        data: Record<string, unknown>;
      };

      expect(body.event).toBe(kind);
      expect(body.data.test).toBe(true);
      expect(body.data.partner_org_id).toBe(internalOrgId);
      if (kind in SEQUENCE_OF)
        expect([body.data.sequence, body.data.previous_status]).toEqual(SEQUENCE_OF[kind as keyof typeof SEQUENCE_OF]);
      expect(DELIVERED_WEBHOOK_EVENT_DATA[kind].parse(body.data)).toEqual(body.data);
    },
  );

  it('order.created is an order of seed catalog products whose total is subtotal + tax + shipping', async () => {
    const { receiver, secret, sendTest } = await aPartnerWithEndpoint();
    expect((await sendTest('order.created')).status).toBe(202);
    await processQueues(stack, sent);

    const { data } = standardVerify(secret, receiver.requests[0] as ReceivedWebhook) as { data: Record<string, any> };
    for (const item of data.items) {
      const product = SEED_CATALOG.find((candidate) => candidate.product_id === item.product_id);
      expect(product, item.product_id).toBeDefined();
      expect([item.name, item.price]).toEqual([product?.name, product?.price]);
    }
    const cents = (amount: number) => Math.round(amount * 100);
    expect(cents(data.total)).toBe(cents(data.subtotal) + cents(data.tax) + cents(data.shipping));
    expect(data.shipping_address).toEqual({ line1: expect.any(String), city: 'Austin', state: 'Texas', zip: '78701' });
  });

  it("an invoice sample carries the sample order's invoice as its kind finds it, its money adding up", async () => {
    const kinds = ['invoice.paid', 'invoice.overdue', 'invoice.credited'] as const;
    const { receiver, secret, sendTest } = await aPartnerWithEndpoint({ events: [...kinds] });
    for (const kind of kinds) expect((await sendTest(kind)).status).toBe(202);
    await processQueues(stack, sent);

    const byKind: Record<string, any> = Object.fromEntries(
      receiver.requests.map((request) => {
        const body = standardVerify(secret, request) as { event: string; data: Record<string, any> };
        return [body.event, body.data];
      }),
    );
    const cents = (amount: number) => Math.round(amount * 100);
    for (const kind of kinds) {
      const { invoice } = byKind[kind];
      expect(cents(invoice.amount_due) + cents(invoice.amount_paid) + cents(invoice.amount_credited), kind).toBe(
        cents(invoice.total),
      );
    }
    expect(byKind['invoice.paid'].invoice).toMatchObject({ status: 'paid', amount_due: 0 });
    expect(byKind['invoice.overdue'].invoice.status).toBe('overdue');
    expect(Date.parse(byKind['invoice.overdue'].invoice.due_date)).toBeLessThan(stack.clock.now().getTime());
    expect(byKind['invoice.credited'].credit_note.amount).toBe(byKind['invoice.credited'].invoice.amount_credited);
  });

  it('approval.decided approves the request approval.requested would have asked for', async () => {
    const { receiver, secret, sendTest } = await aPartnerWithEndpoint({ events: ['approval.decided'] });
    expect((await sendTest('approval.decided')).status).toBe(202);
    await processQueues(stack, sent);
    const { data } = standardVerify(secret, receiver.requests[0] as ReceivedWebhook) as { data: Record<string, any> };
    expect(data).toMatchObject({
      decision: 'approved',
      decided_by: { internal_user_id: expect.any(String), email: expect.any(String) },
      order_id: expect.any(String),
      test: true,
    });
  });

  it('names the placeholder organization test-org when the partner has none yet', async () => {
    const { receiver, secret, sendTest } = await aPartnerWithEndpoint({ organization: false });
    expect((await sendTest('order.confirmed')).status).toBe(202);
    await processQueues(stack, sent);
    const { data } = standardVerify(secret, receiver.requests[0] as ReceivedWebhook) as {
      data: Record<string, unknown>;
    };
    expect(data.partner_org_id).toBe('test-org');
  });
});

describe('POST /v1/webhooks/test refusals', () => {
  it('409 WEBHOOK_ENDPOINT_NOT_CONFIGURED for a partner without a webhook endpoint; nothing is published', async () => {
    const { apiKey } = await stack.createPartner();
    const answer = await stack.post(
      '/v1/webhooks/test',
      { event: 'order.created' },
      { Authorization: `Bearer ${apiKey}` },
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'Conflict', code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED', details: [] });
    expect((await stack.consumers.orderEvents.pollOnce()).received).toBe(0);
  });

  it('409 WEBHOOK_EVENT_NOT_SUBSCRIBED for a kind the endpoint does not take, naming the kinds it does', async () => {
    const { sendTest } = await aPartnerWithEndpoint({ events: ['order.created'] });
    expect((await sendTest('invoice.paid')).body.code).toBe('WEBHOOK_EVENT_NOT_SUBSCRIBED');
    const answer = await sendTest('order.shipped');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED',
      details: [{ code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED', path: ['event'] }],
    });
    expect(answer.body.message).toContain('order.created');
    expect((await stack.consumers.orderEvents.pollOnce()).received).toBe(0);
  });

  it('400 VALIDATION_ERROR on ["event"] for an unknown or missing kind', async () => {
    const { sendTest } = await aPartnerWithEndpoint();
    for (const event of ['order.teleported', undefined]) {
      const answer = await sendTest(event);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: ['event'] }] });
    }
  });

  it('403 for a key without orders:write', async () => {
    const { apiKey } = await stack.createPartner({ scopes: ['organization:write', 'session:write', 'orders:read'] });
    const answer = await stack.post(
      '/v1/webhooks/test',
      { event: 'order.created' },
      { Authorization: `Bearer ${apiKey}` },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('FORBIDDEN');
  });
});

describe('POST /v1/webhooks/test on production', () => {
  it('does not exist: the stage’s routes leave it out, and the function itself answers 404 and publishes nothing', async () => {
    expect(routesOn('production').some((route) => route.path === '/v1/webhooks/test')).toBe(false);
    const { apiKey, receiver } = await aPartnerWithEndpoint();
    const deps = stack.deps.functions.webhookTest;
    const handler = createWebhookTestHandler(() =>
      Promise.resolve({ ...deps, config: { ...deps.config, STAGE: 'production' as const } }),
    );
    const answer = await handler(
      {
        version: '2.0',
        routeKey: 'POST /v1/webhooks/test',
        rawPath: '/v1/webhooks/test',
        rawQueryString: '',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'order.created' }),
        isBase64Encoded: false,
        requestContext: {
          requestId: randomUUID(),
          http: { method: 'POST', path: '/v1/webhooks/test', sourceIp: '127.0.0.1' },
        },
      } as never,
      {} as never,
    );
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body as string)).toEqual({ message: 'Not Found' });
    await processQueues(stack, sent);
    expect(receiver.requests).toEqual([]);
  });
});
