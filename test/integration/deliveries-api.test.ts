/**
 * A partner's own deliveries and endpoint through the API (docs/webhooks.md, "Inspecting
 * and retrying deliveries"), on the local stack: real events through the fan-out and the
 * dispatcher to a loopback receiver, then the partner reads, filters, pages and retries.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId, Scope } from '../../functions/domain/partners/partner';
import { UNQUEUED_GRACE_MS } from '../../functions/webhooks/delivery-replay';
import { FAIRNESS_POLICY } from '../../functions/webhooks/endpoint-circuit';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { orderCreatedData, orderShippedData, processQueues, purgeQueues } from '../support/webhook-fixtures';
import { receiverPool, type WebhookReceiver } from '../support/webhook-receiver';

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

/** The scopes every key had before webhooks:read and webhooks:write existed. */
const OLD_DEFAULT_SCOPES: Scope[] = ['organization:write', 'session:write', 'orders:read', 'orders:write'];

interface Partner {
  partnerId: PartnerId;
  apiKey: string;
  internalOrgId: string;
  secret: string;
  receiver: WebhookReceiver;
  /** What the receiver answers next: change it between events. */
  answer: { status: number };
  auth: { Authorization: string };
}

async function aPartnerWithEndpoint(): Promise<Partner> {
  const answer = { status: 200 };
  const receiver = await receivers.start(() => answer.status);
  const { partnerId, apiKey } = await stack.createPartner();
  const body = aSetupBody();
  await provisionProfile(stack.deps, partnerId, body);
  const { secret } = await webhookSet(stack.deps, { partner: partnerId, url: receiver.url });
  return {
    partnerId,
    apiKey,
    internalOrgId: body.internalOrgId,
    secret: secret as string,
    receiver,
    answer,
    auth: { Authorization: `Bearer ${apiKey}` },
  };
}

/** Publishes one event and runs the pipeline: `deliver: false` stops after the fan-out, so the delivery stays pending. */
async function anEvent(
  partner: Partner,
  event: 'order.created' | 'order.shipped',
  orderId: string,
  options: { deliver?: boolean } = {},
) {
  stack.clock.advance(1000);
  const data =
    event === 'order.created'
      ? orderCreatedData(partner.internalOrgId, orderId)
      : orderShippedData(partner.internalOrgId, orderId);
  const published = await stack.deps.orderEvents.publish({ partnerId: partner.partnerId, event, data });
  if (options.deliver === false) {
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  } else {
    await processQueues(stack, sent);
  }
  const delivery = await stack.deps.deliveries.getByEvent(partner.partnerId, published.eventId);
  if (!delivery) throw new Error('no delivery');
  return delivery;
}

const ids = (body: any) => body.data.map((d: { id: string }) => d.id);

/**
 * One partner's story: order A created (delivered), order A shipped (failed: the receiver
 * answered 500 all the way down the ladder), order B created (pending: not yet sent).
 */
async function aPartnerWithThreeDeliveries() {
  const partner = await aPartnerWithEndpoint();
  const orderA = randomUUID();
  const orderB = randomUUID();
  const delivered = await anEvent(partner, 'order.created', orderA);
  partner.answer.status = 500;
  const failed = await anEvent(partner, 'order.shipped', orderA);
  partner.answer.status = 200;
  const pending = await anEvent(partner, 'order.created', orderB, { deliver: false });
  return { partner, orderA, orderB, delivered, failed, pending };
}

describe('GET /v1/webhooks/deliveries', () => {
  it("lists the partner's deliveries newest first, and each filter narrows the list", async () => {
    const { partner, orderA, delivered, failed, pending } = await aPartnerWithThreeDeliveries();
    const list = (query = '') => stack.get(`/v1/webhooks/deliveries${query}`, partner.auth);

    const all = await list();
    expect(all.status, all.text).toBe(200);
    expect(ids(all.body)).toEqual([pending.deliveryId, failed.deliveryId, delivered.deliveryId]);
    expect(all.body.has_more).toBe(false);
    expect(all.body.data[1]).toMatchObject({
      event: 'order.shipped',
      order_id: orderA,
      status: 'failed',
      round: 1,
      last_attempt: { status_code: 500, succeeded: false },
    });
    expect(all.body.data[0]).toMatchObject({ status: 'pending', next_attempt_at: expect.any(String) });
    expect(all.body.data[0]).not.toHaveProperty('last_attempt');
    expect(all.text).not.toContain('"body"');

    expect(ids((await list('?status=delivered')).body)).toEqual([delivered.deliveryId]);
    expect(ids((await list('?status=failed')).body)).toEqual([failed.deliveryId]);
    expect(ids((await list('?status=pending')).body)).toEqual([pending.deliveryId]);
    expect(ids((await list('?event=order.shipped')).body)).toEqual([failed.deliveryId]);
    expect(ids((await list(`?order_id=${orderA.toUpperCase()}`)).body)).toEqual([
      failed.deliveryId,
      delivered.deliveryId,
    ]);
    expect(ids((await list(`?order_id=${orderA}&status=delivered`)).body)).toEqual([delivered.deliveryId]);
    expect(ids((await list(`?since=${encodeURIComponent(failed.createdAt)}`)).body)).toEqual([
      pending.deliveryId,
      failed.deliveryId,
    ]);
    expect(ids((await list(`?order_id=${randomUUID()}`)).body)).toEqual([]);
  });

  it('pages with limit and starting_after, with and without an order filter', async () => {
    const { partner, orderA, delivered, failed, pending } = await aPartnerWithThreeDeliveries();
    const list = (query: string) => stack.get(`/v1/webhooks/deliveries${query}`, partner.auth);

    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await list(`?limit=1${cursor}`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.data).toHaveLength(1);
      seen.push(...ids(page.body));
      if (!page.body.has_more) break;
      cursor = `&starting_after=${page.body.data[0].id}`;
    }
    expect(seen).toEqual([pending.deliveryId, failed.deliveryId, delivered.deliveryId]);

    const first = await list(`?order_id=${orderA}&limit=1`);
    expect([ids(first.body), first.body.has_more]).toEqual([[failed.deliveryId], true]);
    const second = await list(`?order_id=${orderA}&limit=1&starting_after=${failed.deliveryId}`);
    expect([ids(second.body), second.body.has_more]).toEqual([[delivered.deliveryId], false]);

    const twoOfThree = await list('?limit=2');
    expect([ids(twoOfThree.body), twoOfThree.body.has_more]).toEqual([[pending.deliveryId, failed.deliveryId], true]);
  });

  it("400 for an invalid filter, limit or cursor (another order's, another partner's)", async () => {
    const { partner, orderA, pending } = await aPartnerWithThreeDeliveries();
    const other = await aPartnerWithEndpoint();
    const othersDelivery = await anEvent(other, 'order.created', randomUUID());
    const list = (query: string) => stack.get(`/v1/webhooks/deliveries${query}`, partner.auth);
    const problems = async (query: string) => {
      const answer = await list(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
      return answer.body.details.map((d: { code: string; path: string[] }) => `${d.path.join('.')}:${d.code}`);
    };
    expect(await problems('?status=lost')).toEqual(['status:INVALID_VALUE']);
    expect((await problems('?event=order.teleported'))[0]).toMatch(/^event:/);
    expect((await problems('?since=yesterday'))[0]).toMatch(/^since:/);
    expect((await problems('?limit=101'))[0]).toMatch(/^limit:/);
    expect(await problems(`?order_id=${orderA}&starting_after=${pending.deliveryId}`)).toEqual([
      'starting_after:INVALID_CURSOR',
    ]);
    expect(await problems(`?starting_after=${othersDelivery.deliveryId}`)).toEqual(['starting_after:INVALID_CURSOR']);
  });

  it("never lists another partner's deliveries", async () => {
    const { partner } = await aPartnerWithThreeDeliveries();
    const other = await aPartnerWithEndpoint();
    await anEvent(other, 'order.created', randomUUID());
    const answer = await stack.get('/v1/webhooks/deliveries', other.auth);
    expect(answer.body.data).toHaveLength(1);
    expect(answer.body.data[0].id).not.toBeOneOf(ids((await stack.get('/v1/webhooks/deliveries', partner.auth)).body));
  });
});

describe('GET /v1/webhooks/deliveries/{delivery_id}', () => {
  it('shows every attempt and the exact body sent, never the secret or a signature', async () => {
    const { partner, orderA, failed } = await aPartnerWithThreeDeliveries();
    const answer = await stack.get(`/v1/webhooks/deliveries/${failed.deliveryId.toUpperCase()}`, partner.auth);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id: failed.deliveryId,
      event: 'order.shipped',
      order_id: orderA,
      status: 'failed',
      round: 1,
    });
    // The first attempt and the six retries of the schedule.
    expect(answer.body.attempts).toHaveLength(7);
    for (const [index, attempt] of answer.body.attempts.entries()) {
      expect(attempt).toEqual({
        attempted_at: expect.any(String),
        round: 1,
        attempt: index + 1,
        succeeded: false,
        status_code: 500,
        latency_ms: expect.any(Number),
      });
    }
    const received = partner.receiver.requests.filter((r) => r.headers['webhook-id'] === failed.deliveryId);
    expect(received).toHaveLength(7);
    expect(answer.body.body).toBe(received[0]?.rawBody.toString('utf8'));

    expect(answer.text).not.toContain(partner.secret);
    expect(answer.text).not.toContain('whsec_');
    for (const request of received) {
      expect(answer.text).not.toContain(String(request.headers['x-service-signature']).replace('sha256=', ''));
      expect(answer.text).not.toContain(String(request.headers['webhook-signature']).split(',')[1]);
    }
  });

  it("404 DELIVERY_NOT_FOUND for another partner's delivery, an unknown id and a non-UUID", async () => {
    const { delivered } = await aPartnerWithThreeDeliveries();
    const other = await aPartnerWithEndpoint();
    for (const id of [delivered.deliveryId, randomUUID(), 'not-a-uuid']) {
      const answer = await stack.get(`/v1/webhooks/deliveries/${id}`, other.auth);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual({
        error: 'Not Found',
        message: `No delivery ${id}`,
        code: 'DELIVERY_NOT_FOUND',
        details: [],
      });
    }
  });
});

describe('POST /v1/webhooks/deliveries/{delivery_id}/retry', () => {
  it('sends the delivery again now, with the same delivery id and body, as a new round', async () => {
    // Its own partner: the story's failed ladder leaves that endpoint's circuit open (see the next test).
    const partner = await aPartnerWithEndpoint();
    const delivered = await anEvent(partner, 'order.created', randomUUID());
    const before = partner.receiver.requests.filter((r) => r.headers['webhook-id'] === delivered.deliveryId);
    expect(before).toHaveLength(1);

    const answer = await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({
      id: delivered.deliveryId,
      status: 'pending',
      round: 2,
      next_attempt_at: stack.clock.now().toISOString(),
    });
    expect(answer.body.attempts).toHaveLength(1);

    await processQueues(stack, sent);
    const after = partner.receiver.requests.filter((r) => r.headers['webhook-id'] === delivered.deliveryId);
    expect(after).toHaveLength(2);
    expect(after[1]?.headers['x-service-delivery-id']).toBe(delivered.deliveryId);
    expect(after[1]?.rawBody.equals(before[0]?.rawBody as Buffer)).toBe(true);

    const shown = await stack.get(`/v1/webhooks/deliveries/${delivered.deliveryId}`, partner.auth);
    expect(shown.body).toMatchObject({
      status: 'delivered',
      round: 2,
      last_attempt: { round: 2, attempt: 1, succeeded: true, status_code: 200 },
    });
    expect(shown.body.attempts).toHaveLength(2);
  });

  it("waits, while the endpoint's circuit is open, for the probe like any attempt: its first attempt is counted unsent at its rung, the probe delivers it", async () => {
    const { partner, delivered } = await aPartnerWithThreeDeliveries();
    await purgeQueues(stack); // the pending delivery's queued attempt stays out of this
    // The failed delivery's last attempt, a probe, failed a moment ago: the circuit is open for longer than a minute.
    const circuit = (await stack.deps.webhookEndpoints.get(partner.partnerId))?.circuit;
    expect(circuit).toMatchObject({ state: 'open' });
    const retriedAt = stack.clock.now().getTime();
    expect(Date.parse(circuit!.retryAt!) - retriedAt).toBeGreaterThan(60_000);

    expect((await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth)).status).toBe(
      202,
    );
    await processQueues(stack, sent);
    expect(partner.receiver.requests.filter((r) => r.headers['webhook-id'] === delivered.deliveryId)).toHaveLength(2);
    const shown = await stack.get(`/v1/webhooks/deliveries/${delivered.deliveryId}`, partner.auth);
    expect(shown.body).toMatchObject({ status: 'delivered', round: 2 });
    expect(shown.body.attempts.slice(1)).toEqual([
      expect.objectContaining({
        round: 2,
        attempt: 1,
        succeeded: false,
        error: expect.stringMatching(/^not sent: the endpoint's circuit is open/),
      }),
      expect.objectContaining({
        round: 2,
        attempt: 2,
        succeeded: true,
        status_code: 200,
        attempted_at: circuit!.retryAt,
      }),
    ]);
    // Counted at its next rung (1 minute), not before: the ladder is kept.
    expect(Date.parse(shown.body.attempts[1].attempted_at) - retriedAt).toBe(60_000);
  });

  it('sends a delivery waiting for its next attempt at once (202), its ladder kept; 409 while that attempt is in flight', async () => {
    const partner = await aPartnerWithEndpoint();
    partner.answer.status = 503;
    const waiting = await anEvent(partner, 'order.created', randomUUID(), { deliver: false });
    await stack.consumers.webhookDeliveries.pollOnce(); // attempt 1 fails: attempt 2 waits its rung
    const before = await stack.deps.deliveries.get(waiting.deliveryId);
    expect(before).toMatchObject({ status: 'pending', chain: 1, attemptCount: 1 });
    expect(Date.parse(before!.nextAttemptAt!)).toBeGreaterThan(stack.clock.now().getTime());

    stack.clock.advance(5_000);
    const retriedAt = stack.clock.now().toISOString();
    const retry = (id: string) => stack.post(`/v1/webhooks/deliveries/${id}/retry`, '', partner.auth);
    const retried = await retry(waiting.deliveryId.toUpperCase());
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({
      id: waiting.deliveryId,
      status: 'pending',
      round: 1,
      next_attempt_at: retriedAt,
    });
    const inFlight = await retry(waiting.deliveryId);
    expect([inFlight.status, inFlight.body.code]).toEqual([409, 'DELIVERY_IN_FLIGHT']);

    // It fails again: attempt 3 waits the ladder's third rung, and the message of attempt 2's old time sends nothing.
    const sentBefore = sent.length;
    await processQueues(stack, sent);
    const shown = await stack.get(`/v1/webhooks/deliveries/${waiting.deliveryId}`, partner.auth);
    expect(shown.body.attempts.slice(0, 3)).toEqual([
      expect.objectContaining({ round: 1, attempt: 1, succeeded: false }),
      expect.objectContaining({ round: 1, attempt: 2, succeeded: false, attempted_at: retriedAt }),
      expect.objectContaining({ round: 1, attempt: 3, succeeded: false }),
    ]);
    const queuedAttempts = sent
      .slice(sentBefore)
      .filter((m) => m.queueUrl === stack.queueUrls.webhookDeliveries && m.body.deliveryId === waiting.deliveryId)
      .map((m) => m.body.attempt);
    // Hops of one message repeat its attempt; each attempt after 2 was queued from one chain of hops, not two.
    const firstQueued = (attempt: number) =>
      sent
        .slice(sentBefore)
        .filter((m) => m.body?.deliveryId === waiting.deliveryId && m.body.attempt === attempt && m.delaySeconds > 0)
        .map((m) => m.body.dueAt);
    expect(queuedAttempts).toContain(3);
    expect(new Set(firstQueued(3)).size).toBe(1);
    expect(partner.receiver.requests.filter((r) => r.headers['webhook-id'] === waiting.deliveryId).length).toBe(
      shown.body.attempts.length,
    );
  });

  it('409 DELIVERY_IN_FLIGHT while the delivery is pending, and for a second retry before the first is sent', async () => {
    const { partner, failed, pending } = await aPartnerWithThreeDeliveries();
    const retry = (id: string) => stack.post(`/v1/webhooks/deliveries/${id}/retry`, '', partner.auth);

    const refused = await retry(pending.deliveryId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'Conflict', code: 'DELIVERY_IN_FLIGHT', details: [] });

    expect((await retry(failed.deliveryId)).status).toBe(202);
    const again = await retry(failed.deliveryId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DELIVERY_IN_FLIGHT');
    expect((await stack.deps.deliveries.get(failed.deliveryId))?.chain).toBe(2);
  });

  it('a retry that failed before its attempt was queued (500) leaves no stuck delivery: the next retry queues it and it is delivered', async () => {
    const partner = await aPartnerWithEndpoint();
    const delivered = await anEvent(partner, 'order.created', randomUUID());
    let failNextSend = true;
    stack.deps.aws.sqs.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'SendMessageCommand' && failNextSend) {
          failNextSend = false;
          throw Object.assign(new Error('queue unavailable'), { name: 'ServiceUnavailable' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failOneSend' },
    );
    try {
      const failed = await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth);
      expect(failed.status).toBe(500);
      expect(await stack.deps.deliveries.get(delivered.deliveryId)).toMatchObject({
        status: 'pending',
        chain: 2,
        attemptCount: 0,
      });
      // At once it may still be on its way (a double click): in flight.
      expect((await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth)).status).toBe(
        409,
      );
      stack.clock.advance(UNQUEUED_GRACE_MS);

      const again = await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth);
      expect(again.status, again.text).toBe(202);
      expect(again.body).toMatchObject({ id: delivered.deliveryId, status: 'pending', round: 2 });
      // Queued now: a third retry is in flight like any pending delivery's.
      expect((await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth)).status).toBe(
        409,
      );
      await processQueues(stack, sent);
      const shown = await stack.get(`/v1/webhooks/deliveries/${delivered.deliveryId}`, partner.auth);
      expect(shown.body).toMatchObject({
        status: 'delivered',
        round: 2,
        last_attempt: { round: 2, attempt: 1, succeeded: true },
      });
    } finally {
      stack.deps.aws.sqs.middlewareStack.remove('failOneSend');
    }
  });

  it("404 for another partner's delivery (nothing is sent), 409 WEBHOOK_ENDPOINT_NOT_CONFIGURED without an endpoint", async () => {
    const { partner, delivered } = await aPartnerWithThreeDeliveries();
    const other = await aPartnerWithEndpoint();
    const foreign = await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('DELIVERY_NOT_FOUND');
    expect((await stack.deps.deliveries.get(delivered.deliveryId))?.chain).toBe(1);

    await stack.deps.webhookAdmin.remove(partner.partnerId);
    const nowhere = await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', partner.auth);
    expect(nowhere.status).toBe(409);
    expect(nowhere.body.code).toBe('WEBHOOK_ENDPOINT_NOT_CONFIGURED');
  });
});

describe('GET /v1/webhooks/endpoint', () => {
  it('shows URL, events, status and secret dates, never the secret', async () => {
    const partner = await aPartnerWithEndpoint();
    const answer = await stack.get('/v1/webhooks/endpoint', partner.auth);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      url: partner.receiver.url,
      events: [
        'order.created',
        'order.confirmed',
        'order.shipped',
        'order.delivered',
        'order.cancelled',
        'order.refunded',
      ],
      status: 'active',
      status_since: expect.any(String),
      // No 2xx yet: no latency baseline, and an answer is slow past the policy's second.
      throughput: {
        concurrency: FAIRNESS_POLICY.initialInFlight,
        max_concurrency: FAIRNESS_POLICY.maxInFlight,
        slow_after_ms: FAIRNESS_POLICY.healthyLatencyMs,
      },
      secret_rotated_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(answer.text).not.toContain(partner.secret);
    expect(answer.text).not.toContain('whsec_');

    await stack.deps.webhookAdmin.pause(partner.partnerId, 'maintenance window');
    expect((await stack.get('/v1/webhooks/endpoint', partner.auth)).body).toMatchObject({
      status: 'paused',
      status_reason: 'maintenance window',
    });
  });

  it("shows the operator's max rate (webhook set --max-rate), kept by a later set without it, and removed by --max-rate 0", async () => {
    const partner = await aPartnerWithEndpoint();
    const throughput = async () => (await stack.get('/v1/webhooks/endpoint', partner.auth)).body.throughput;
    const set = (maxRate?: number) =>
      webhookSet(stack.deps, {
        partner: partner.partnerId,
        url: partner.receiver.url,
        ...(maxRate === undefined ? {} : { maxRate }),
      });
    expect((await set(5)).maxRatePerSecond).toBe(5);
    expect(await throughput()).toEqual({
      concurrency: 2,
      max_concurrency: 32,
      slow_after_ms: 1000,
      max_rate_per_second: 5,
    });
    await set();
    expect(await throughput()).toMatchObject({ max_rate_per_second: 5 });
    await set(0);
    expect(await throughput()).toEqual({ concurrency: 2, max_concurrency: 32, slow_after_ms: 1000 });
    await expect(set(1001)).rejects.toThrow(/maxRate must be a whole number/);
  });

  it("shows the endpoint's own latency once it answered 2xx, and when an answer counts as slow for it", async () => {
    const partner = await aPartnerWithEndpoint();
    const delivered = await anEvent(partner, 'order.created', randomUUID());
    const { attempts } = (await stack.get(`/v1/webhooks/deliveries/${delivered.deliveryId}`, partner.auth)).body;
    const { throughput } = (await stack.get('/v1/webhooks/endpoint', partner.auth)).body;
    // Its first 2xx is its whole baseline; a receiver on 127.0.0.1 is slow past the 250 ms floor.
    expect(throughput).toEqual({
      concurrency: 3,
      max_concurrency: 32,
      latency_baseline_ms: attempts[0].latency_ms,
      slow_after_ms: Math.max(FAIRNESS_POLICY.slowLatencyFloorMs, 2 * attempts[0].latency_ms),
    });
  });

  it("reads the dispatcher's circuit: circuit_open since the fifth failure in a row, half_open while its probe is out, closed after a success", async () => {
    const partner = await aPartnerWithEndpoint();
    partner.answer.status = 500;
    const failed = await anEvent(partner, 'order.shipped', randomUUID());
    const { attempts } = (await stack.get(`/v1/webhooks/deliveries/${failed.deliveryId}`, partner.auth)).body;
    expect(attempts).toHaveLength(7);
    // The probes of attempts 6 and 7 failed and opened it again: it stays open since it first opened.
    const since = attempts[FAIRNESS_POLICY.failureThreshold - 1].attempted_at;
    const endpoint = () => stack.get('/v1/webhooks/endpoint', partner.auth);
    expect((await endpoint()).body).toMatchObject({
      status: 'circuit_open',
      status_since: since,
      circuit: { state: 'open', since },
    });

    // The dispatcher's own claim of the probe, as it makes it once the circuit's wait is over.
    const gate = stack.deps.endpointGate;
    const { retryAt } = (await stack.deps.webhookEndpoints.get(partner.partnerId))!.circuit!;
    const probeAt = new Date(retryAt!);
    const probe = await gate.admit(partner.partnerId, {
      now: probeAt,
      leaseUntil: new Date(probeAt.getTime() + 60_000),
      token: randomUUID(),
      policy: FAIRNESS_POLICY,
    });
    expect(probe).toMatchObject({ kind: 'admitted', ticket: { kind: 'probe' } });
    expect((await endpoint()).body).toMatchObject({ status: 'active', circuit: { state: 'half_open', since } });

    if (probe.kind !== 'admitted') return;
    await gate.settle(partner.partnerId, probe.ticket, { verdict: 'fast', at: probeAt, policy: FAIRNESS_POLICY });
    const closed = (await endpoint()).body;
    expect(closed).toMatchObject({ status: 'active', circuit: { state: 'closed' } });
    expect(closed.circuit).not.toHaveProperty('since');
  });

  it('404 WEBHOOK_ENDPOINT_NOT_CONFIGURED when the partner has none', async () => {
    const { apiKey } = await stack.createPartner();
    const answer = await stack.get('/v1/webhooks/endpoint', { Authorization: `Bearer ${apiKey}` });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      error: 'Not Found',
      message: 'You have no webhook endpoint; ask the operator to set one up',
      code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
      details: [],
    });
  });
});

describe('scopes', () => {
  it('a new key has webhooks:read and webhooks:write by default', async () => {
    const { partnerId } = await stack.createPartner();
    const keys = await stack.deps.partners.listKeys(partnerId);
    expect(keys[0]?.scopes).toEqual(expect.arrayContaining(['webhooks:read', 'webhooks:write']));
  });

  it('403 on every route for a key issued before the webhook scopes existed (the old default scopes)', async () => {
    const { delivered } = await aPartnerWithThreeDeliveries();
    const { apiKey } = await stack.createPartner({ scopes: OLD_DEFAULT_SCOPES });
    const auth = { Authorization: `Bearer ${apiKey}` };
    for (const answer of [
      await stack.get('/v1/webhooks/deliveries', auth),
      await stack.get(`/v1/webhooks/deliveries/${delivered.deliveryId}`, auth),
      await stack.post(`/v1/webhooks/deliveries/${delivered.deliveryId}/retry`, '', auth),
      await stack.get('/v1/webhooks/endpoint', auth),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('FORBIDDEN');
    }
  });

  it('403 on retry for a key with webhooks:read only; it still reads', async () => {
    const partner = await aPartnerWithEndpoint();
    const delivery = await anEvent(partner, 'order.created', randomUUID());
    const { apiKey } = await stack.deps.partnerAdmin.issueKey(partner.partnerId, ['webhooks:read']);
    const auth = { Authorization: `Bearer ${apiKey}` };
    expect((await stack.get(`/v1/webhooks/deliveries/${delivery.deliveryId}`, auth)).status).toBe(200);
    const retry = await stack.post(`/v1/webhooks/deliveries/${delivery.deliveryId}/retry`, '', auth);
    expect(retry.status).toBe(403);
    expect(retry.body.message).toBe('This API key lacks the webhooks:write scope');
  });
});
