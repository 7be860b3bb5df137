/**
 * Fair delivery (docs/webhooks.md, "Fair delivery"): one partner's slow, failing or dead
 * receiver does not hold up another's deliveries. Real receivers on 127.0.0.1, the real
 * dispatcher handler and DynamoDB gate on the stand-ins, the ManualClock for the ladder.
 * Nothing here measures time: each test asserts what happened, and in which order.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../functions/domain/metrics';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { FAIRNESS_POLICY } from '../../functions/webhooks/endpoint-circuit';
import { endpointGate } from '../../functions/composition/repositories';
import { createWebhookDispatchHandler } from '../../functions/lambdas/webhook-dispatch';
import { emailsTo } from '../support/ses-outbox';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { receiverPool, type Responder, type WebhookReceiver } from '../support/webhook-receiver';
import { aPartnerWithOrganization, orderCreatedData, purgeQueues } from '../support/webhook-fixtures';

/** Long enough that a hanging receiver's attempt is still in flight while the rest of each test runs. */
const TIMEOUT_MS = 4000;
const RETRY_DELAYS_S = [60, 300];

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();

beforeAll(async () => {
  stack = await startTestStack({
    queuePollers: false,
    // Fair delivery on its own: no fast path budget under the deadline, so every attempt stays on the one path
    // (test/integration/webhook-slow-path.test.ts covers the budget).
    extraEnvironment: {
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_FAST_PATH_BUDGET_MS: String(TIMEOUT_MS),
      WEBHOOK_RETRY_DELAYS_S: RETRY_DELAYS_S.join(','),
    },
  });
  sent = recordSqsDelays(stack.deps.aws.sqs);
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(() => stack.close());

/** A receiver, and a promise of its `n`th request (1-based) for each `n` asked for. */
async function aReceiver(respond: Responder = () => 200) {
  const arrivals: (() => void)[] = [];
  const waiting = new Map<number, Promise<void>>();
  const receiver: WebhookReceiver = await receivers.start((index) => {
    arrivals[index]?.();
    return respond(index);
  });
  const request = (n: number) => {
    if (!waiting.has(n))
      waiting.set(
        n,
        receiver.requests.length >= n ? Promise.resolve() : new Promise<void>((arrived) => (arrivals[n - 1] = arrived)),
      );
    return waiting.get(n) as Promise<void>;
  };
  return Object.assign(receiver, { request });
}

async function aSubscribedPartner(url: string) {
  const partner = await aPartnerWithOrganization(stack);
  await stack.deps.webhookAdmin.configureEndpoint({ partnerId: partner.partnerId, url });
  return partner;
}

const deliveryMessages = () => sent.filter((m) => m.queueUrl === stack.queueUrls.webhookDeliveries);

/** Publishes `count` events for the partner and fans them out; returns their first attempts' message bodies. */
async function queuedDeliveries(
  partner: { partnerId: PartnerId; internalOrgId: string },
  count = 1,
): Promise<string[]> {
  const before = deliveryMessages().length;
  for (let i = 0; i < count; i += 1) {
    await stack.deps.orderEvents.publish({
      partnerId: partner.partnerId,
      event: 'order.created',
      data: orderCreatedData(partner.internalOrgId),
      eventId: `evt-${randomUUID()}`,
    });
  }
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  await purgeQueues(stack); // the tests hand the messages to the handler themselves, as Lambda would
  return deliveryMessages()
    .slice(before)
    .map((m) => JSON.stringify(m.body));
}

const handle = createWebhookDispatchHandler(() => Promise.resolve(stack.deps.functions.webhookDispatch));
/** One Lambda invocation of the dispatcher over these message bodies. */
const invoke = (bodies: readonly string[]) =>
  handle({
    Records: bodies.map(
      (body, index) =>
        ({
          messageId: `m-${index}`,
          receiptHandle: `r-${index}`,
          body,
          attributes: { ApproximateReceiveCount: '1' },
        }) as unknown as SQSRecord,
    ),
  });

const deliveriesOf = (partnerId: PartnerId) => stack.deps.webhookAdmin.listDeliveries(partnerId);
const circuitOf = async (partnerId: PartnerId) => (await stack.deps.webhookEndpoints.get(partnerId))?.circuit;
const logsOf = (msg: string, partnerId: PartnerId) =>
  stack.logs.filter((line) => line.msg === msg && line.partnerId === partnerId);
/** The CircuitStateChanges the EMF lines published from the `from`th line on, one entry per change, by new state. */
const circuitChangesSince = (from: number) =>
  stack.metricLines
    .slice(from)
    .filter((line) => METRIC.circuitStateChanges in line)
    .flatMap((line) => Array.from({ length: Number(line[METRIC.circuitStateChanges]) }, () => line.state));

/** Opens the partner's circuit as five failed attempts would, until `retryAt`. */
async function openCircuit(partnerId: PartnerId, retryAt: Date) {
  const endpoint = (await stack.deps.webhookEndpoints.get(partnerId))!;
  const openedAt = stack.clock.now().toISOString();
  await stack.deps.webhookEndpoints.put({
    ...endpoint,
    circuit: {
      state: 'open',
      consecutiveFailures: FAIRNESS_POLICY.failureThreshold,
      openedAt,
      retryAt: retryAt.toISOString(),
      opens: 1,
    },
  });
}

describe('the operator changing an endpoint', () => {
  it('keeps an open circuit when only the subscribed kinds change, and starts a new URL closed', async () => {
    const dead = await aReceiver(() => 500);
    const partner = await aSubscribedPartner(dead.url);
    const retryAt = new Date(stack.clock.now().getTime() + 60_000);
    await openCircuit(partner.partnerId, retryAt);

    await stack.deps.webhookAdmin.configureEndpoint({
      partnerId: partner.partnerId,
      url: dead.url,
      events: ['order.created', 'approval.requested', 'approval.decided'],
    });
    expect(await circuitOf(partner.partnerId)).toMatchObject({ state: 'open', retryAt: retryAt.toISOString() });

    const mended = await aReceiver();
    await stack.deps.webhookAdmin.configureEndpoint({ partnerId: partner.partnerId, url: mended.url });
    expect((await circuitOf(partner.partnerId))?.state ?? 'closed').toBe('closed');
  });
});

describe('a hanging receiver does not delay other partners', () => {
  it("delivers to a healthy partner in the same batch while the hanging receiver's attempt is still in flight", async () => {
    const hanging = await aReceiver(() => 'hang');
    const healthy = await aReceiver();
    const slow = await aSubscribedPartner(hanging.url);
    const fine = await aSubscribedPartner(healthy.url);
    const bodies = [...(await queuedDeliveries(slow)), ...(await queuedDeliveries(fine))];

    const batch = invoke(bodies);
    // Both POSTs go out at once, in either order; the healthy one is received and recorded
    // while the hanging one has not ended.
    await Promise.all([healthy.request(1), hanging.request(1)]);
    expect((await deliveriesOf(slow.partnerId))[0]).toMatchObject({ status: 'pending', attemptCount: 0 });
    await expect.poll(async () => (await deliveriesOf(fine.partnerId))[0]?.status).toBe('delivered');
    expect((await deliveriesOf(slow.partnerId))[0]).toMatchObject({ attemptCount: 0 });

    expect((await batch).batchItemFailures).toEqual([]);
    expect((await deliveriesOf(slow.partnerId))[0]).toMatchObject({ status: 'pending', attemptCount: 1 });
  });

  it('locally, the poller takes the next batch while one batch waits on a hanging receiver', async () => {
    const hanging = await aReceiver(() => 'hang');
    const healthy = await aReceiver();
    const slow = await aSubscribedPartner(hanging.url);
    const fine = await aSubscribedPartner(healthy.url);
    const send = async (bodies: string[]) => {
      for (const MessageBody of bodies)
        await stack.deps.aws.sqs.send(
          new SendMessageCommand({ QueueUrl: stack.queueUrls.webhookDeliveries, MessageBody }),
        );
    };
    const slowBodies = await queuedDeliveries(slow);
    const fineBodies = await queuedDeliveries(fine);

    stack.consumers.webhookDeliveries.start();
    try {
      await send(slowBodies);
      await hanging.request(1);
      await send(fineBodies);
      await healthy.request(1);
      // The hanging attempt has not ended (nor been recorded) when the healthy one arrives.
      expect((await deliveriesOf(slow.partnerId))[0]).toMatchObject({ status: 'pending', attemptCount: 0 });
    } finally {
      await stack.consumers.webhookDeliveries.stop();
    }
  });
});

describe("an endpoint's circuit", () => {
  it('opens after five failures in a row, then defers without a POST and logs webhook_circuit_opened', async () => {
    const failing = await aReceiver(() => 500);
    const partner = await aSubscribedPartner(failing.url);
    const bodies = await queuedDeliveries(partner, 6);
    const metricsFrom = stack.metricLines.length;

    for (const body of bodies.slice(0, 5)) expect((await invoke([body])).batchItemFailures).toEqual([]);
    expect(failing.requests).toHaveLength(5);
    expect(await circuitOf(partner.partnerId)).toMatchObject({ state: 'open', consecutiveFailures: 5 });
    expect(logsOf('webhook_circuit_opened', partner.partnerId)).toEqual([
      expect.objectContaining({ partnerId: partner.partnerId, endpoint: failing.url, consecutiveFailures: 5 }),
    ]);
    expect(circuitChangesSince(metricsFrom)).toEqual(['open']);

    const before = deliveryMessages().length;
    await invoke([bodies[5] as string]);
    expect(failing.requests).toHaveLength(5);
    const [deferred] = deliveryMessages().slice(before);
    // Back when the circuit lets a probe through (30 s), long before its next rung (60 s); nothing recorded.
    expect(deferred).toMatchObject({
      delaySeconds: FAIRNESS_POLICY.openSeconds(1),
      body: JSON.parse(bodies[5] as string),
    });
    const sixth = (await deliveriesOf(partner.partnerId)).find((d) => d.deliveryId === deferred?.body.deliveryId);
    expect(sixth).toMatchObject({ status: 'pending', attemptCount: 0 });
  });

  it("lets exactly one probe through when two dispatchers ask at once, and closes on a later probe's success", async () => {
    // The first probe hangs (to its timeout), so the other dispatcher decides while it is out.
    const receiver = await aReceiver((index) => (index === 0 ? 'hang' : 200));
    const partner = await aSubscribedPartner(receiver.url);
    const [first, second, third] = await queuedDeliveries(partner, 3);
    await openCircuit(partner.partnerId, stack.clock.now());
    stack.clock.advance(1000);
    const metricsFrom = stack.metricLines.length;

    const before = deliveryMessages().length;
    const outcomes = await Promise.all([invoke([first as string]), invoke([second as string])]);
    expect(outcomes.map((o) => o.batchItemFailures)).toEqual([[], []]);
    expect(receiver.requests).toHaveLength(1);
    const requeued = deliveryMessages().slice(before);
    // One message deferred unsent (attempt 1), one retry of the failed probe (attempt 2).
    expect(requeued.map((m) => m.body.attempt).sort()).toEqual([1, 2]);
    expect(await circuitOf(partner.partnerId)).toMatchObject({ state: 'open', opens: 2 });

    stack.clock.advance(FAIRNESS_POLICY.openSeconds(2) * 1000);
    await invoke([third as string]);
    expect(receiver.requests).toHaveLength(2);
    expect(await circuitOf(partner.partnerId)).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(logsOf('webhook_circuit_closed', partner.partnerId)).toEqual([
      expect.objectContaining({ endpoint: receiver.url }),
    ]);
    // The dispatcher that lost the probe's claim counts nothing.
    expect(circuitChangesSince(metricsFrom)).toEqual(['half-open', 'open', 'half-open', 'closed']);
  });

  it("lets the next dispatcher probe once a crashed prober's claim lapses; the circuit was half-open already, so only the close is counted", async () => {
    const receiver = await aReceiver();
    const partner = await aSubscribedPartner(receiver.url);
    const [body] = await queuedDeliveries(partner);
    await openCircuit(partner.partnerId, stack.clock.now());
    const gate = stack.deps.endpointGate;
    const leaseUntil = new Date(stack.clock.now().getTime() + 60_000);
    // A dispatcher claims the probe and crashes: it never settles.
    const crashed = await gate.admit(partner.partnerId, {
      now: stack.clock.now(),
      leaseUntil,
      token: randomUUID(),
      policy: FAIRNESS_POLICY,
    });
    expect(crashed).toMatchObject({ kind: 'admitted', ticket: { kind: 'probe', halfOpened: true } });
    stack.clock.advance(61_000);
    const metricsFrom = stack.metricLines.length;

    await invoke([body as string]);
    expect(receiver.requests).toHaveLength(1);
    expect(await circuitOf(partner.partnerId)).toMatchObject({ state: 'closed' });
    expect(circuitChangesSince(metricsFrom)).toEqual(['closed']);
  });

  it('opens again for twice as long when the probe fails', async () => {
    const failing = await aReceiver(() => 503);
    const partner = await aSubscribedPartner(failing.url);
    const [body] = await queuedDeliveries(partner);
    await openCircuit(partner.partnerId, stack.clock.now());

    await invoke([body as string]);
    expect(failing.requests).toHaveLength(1);
    const circuit = await circuitOf(partner.partnerId);
    expect(circuit).toMatchObject({ state: 'open', opens: 2 });
    expect(new Date(circuit!.retryAt!).getTime() - stack.clock.now().getTime()).toBe(
      FAIRNESS_POLICY.openSeconds(2) * 1000,
    );
  });
});

describe("an endpoint's attempts in flight", () => {
  it("are capped at a new endpoint's two across dispatchers; the others are deferred without a POST", async () => {
    const hanging = await aReceiver(() => 'hang');
    const partner = await aSubscribedPartner(hanging.url);
    const bodies = await queuedDeliveries(partner, 4);

    const before = deliveryMessages().length;
    const outcomes = await Promise.all([invoke(bodies.slice(0, 2)), invoke(bodies.slice(2))]);
    expect(outcomes.map((o) => o.batchItemFailures)).toEqual([[], []]);
    expect(hanging.requests).toHaveLength(FAIRNESS_POLICY.initialInFlight);
    const deferred = deliveryMessages()
      .slice(before)
      .filter((m) => m.body.attempt === 1);
    expect(deferred).toHaveLength(4 - FAIRNESS_POLICY.initialInFlight);
    expect(deferred.map((m) => m.delaySeconds)).toEqual(deferred.map(() => FAIRNESS_POLICY.busyDeferSeconds(false)));
  });

  it("are leased: a crashed dispatcher's slot frees itself when its lease lapses", async () => {
    const receiver = await aReceiver();
    const partner = await aSubscribedPartner(receiver.url);
    const gate = stack.deps.endpointGate;
    const claim = () =>
      gate.admit(partner.partnerId, {
        now: stack.clock.now(),
        leaseUntil: new Date(stack.clock.now().getTime() + 60_000),
        token: randomUUID(),
        policy: FAIRNESS_POLICY,
      });
    // Two dispatchers claim a slot each and crash: they never settle.
    expect((await claim()).kind).toBe('admitted');
    expect((await claim()).kind).toBe('admitted');
    expect(await claim()).toEqual({ kind: 'busy', failing: false });
    stack.clock.advance(61_000);
    expect((await claim()).kind).toBe('admitted');
  });
});

describe("one dispatcher's claims at once", () => {
  it("take the endpoint's slots without racing each other: as many admitted as its concurrency, the rest busy at the first answer", async () => {
    const receiver = await aReceiver();
    const partner = await aSubscribedPartner(receiver.url);
    for (const body of await queuedDeliveries(partner, 4)) await invoke([body]);
    const concurrency = FAIRNESS_POLICY.initialInFlight + 4;
    const gate = stack.deps.endpointGate;
    const writes = countEndpointWrites();
    const claims = await Promise.all(
      Array.from({ length: 20 }, () =>
        gate.admit(partner.partnerId, {
          now: stack.clock.now(),
          leaseUntil: new Date(stack.clock.now().getTime() + 60_000),
          token: randomUUID(),
          policy: FAIRNESS_POLICY,
        }),
      ),
    );
    expect(claims.filter((claim) => claim.kind === 'admitted')).toHaveLength(concurrency);
    expect(claims.filter((claim) => claim.kind === 'busy')).toHaveLength(20 - concurrency);
    // One write per slot taken; a claim that finds every slot taken by its siblings answers busy without writing.
    expect(writes.lost).toBe(0);
    expect(writes.made).toBe(concurrency);
  });
});

describe('an endpoint with an attempt in flight past the healthy latency', () => {
  it('gets no more than two attempts at once until it answers, whatever its concurrency', async () => {
    const receiver = await aReceiver();
    const partner = await aSubscribedPartner(receiver.url);
    for (const body of await queuedDeliveries(partner, 4)) await invoke([body]);
    const gate = stack.deps.endpointGate;
    const claim = () =>
      gate.admit(partner.partnerId, {
        now: stack.clock.now(),
        leaseUntil: new Date(stack.clock.now().getTime() + 60_000),
        token: randomUUID(),
        policy: FAIRNESS_POLICY,
      });
    expect((await claim()).kind).toBe('admitted');
    stack.clock.advance(FAIRNESS_POLICY.healthyLatencyMs + 1);
    const claims = await Promise.all(Array.from({ length: 5 }, claim));
    expect(claims.filter((c) => c.kind === 'admitted')).toHaveLength(FAIRNESS_POLICY.initialInFlight - 1);
  });
});

/** Conditional writes to webhook endpoint items from now on: made, and lost to their condition. */
function countEndpointWrites(): { made: number; lost: number } {
  const counts = { made: 0, lost: 0 };
  stack.deps.aws.db.middlewareStack.add(
    (next, context) => async (args) => {
      // The document client's commands reach the client's stack as UpdateItem, their key marshalled or not yet.
      const sk = (args.input as { Key?: { sk?: string | { S?: string } } }).Key?.sk;
      const key = typeof sk === 'string' ? sk : (sk?.S ?? '');
      if (!/^Update(Item)?Command$/.test(context.commandName ?? '') || !key.startsWith('WEBHOOK')) return next(args);
      try {
        const result = await next(args);
        counts.made += 1;
        return result;
      } catch (error) {
        counts.lost += 1;
        throw error;
      }
    },
    { step: 'initialize', name: `countEndpointWrites-${randomUUID()}` },
  );
  return counts;
}

describe("an endpoint's adaptive concurrency, stored on its item", () => {
  it('rises with fast 2xx answers across invocations, then lets that many attempts in flight at once', async () => {
    // Four quick 2xx answers, then it hangs.
    const receiver = await aReceiver((index) => (index < 4 ? 200 : 'hang'));
    const partner = await aSubscribedPartner(receiver.url);
    for (const body of await queuedDeliveries(partner, 4)) await invoke([body]);
    const endpoint = await stack.deps.webhookEndpoints.get(partner.partnerId);
    expect(endpoint?.circuit?.concurrency).toBe(FAIRNESS_POLICY.initialInFlight + 4);

    const bodies = await queuedDeliveries(partner, 8);
    await Promise.all(bodies.map((body) => invoke([body])));
    expect(receiver.requests).toHaveLength(4 + FAIRNESS_POLICY.initialInFlight + 4);
  });

  it("keeps its latency baseline there: another process's gate judges an attempt in flight by it, not by a fixed second", async () => {
    const receiver = await aReceiver();
    const partner = await aSubscribedPartner(receiver.url);
    for (const body of await queuedDeliveries(partner, 4)) await invoke([body]);
    // A receiver on 127.0.0.1 answers in a few ms: slow past the 250 ms floor.
    const stored = (await stack.deps.webhookEndpoints.get(partner.partnerId))?.circuit?.latencyBaselineMs;
    expect(stored).toBeGreaterThanOrEqual(0);
    expect(stored).toBeLessThan(FAIRNESS_POLICY.slowLatencyFloorMs / FAIRNESS_POLICY.slowLatencyFactor);

    const gate = endpointGate({ config: stack.config, db: stack.deps.aws.db });
    const claim = () =>
      gate.admit(partner.partnerId, {
        now: stack.clock.now(),
        leaseUntil: new Date(stack.clock.now().getTime() + 60_000),
        token: randomUUID(),
        policy: FAIRNESS_POLICY,
      });
    const first = await claim();
    expect(first).toMatchObject({ kind: 'admitted', ticket: { latencyBaselineMs: stored } });
    stack.clock.advance(FAIRNESS_POLICY.slowLatencyFloorMs + 1);
    const claims = await Promise.all(Array.from({ length: 5 }, claim));
    expect(claims.filter((c) => c.kind === 'admitted')).toHaveLength(FAIRNESS_POLICY.initialInFlight - 1);
  });
});

describe('the ladder under an open circuit', () => {
  it('counts an attempt kept back past its next rung as failed, unsent, and the last one fails with exactly one alert', async () => {
    const receiver = await aReceiver();
    const { partnerId, alertEmail, ...partner } = await aSubscribedPartner(receiver.url);
    const [body] = await queuedDeliveries({ partnerId, ...partner });
    const dueAt = stack.clock.now().getTime();
    // Open for longer than the whole ladder: every attempt is kept back.
    await openCircuit(partnerId, new Date(dueAt + 24 * 3600 * 1000));

    const steps: number[] = [];
    let next: string | undefined = body;
    while (next) {
      const before = deliveryMessages().length;
      await invoke([next]);
      const queued = deliveryMessages().slice(before).at(-1);
      next = queued ? JSON.stringify(queued.body) : undefined;
      if (queued) {
        steps.push(queued.delaySeconds);
        stack.clock.advance(queued.delaySeconds * 1000);
      }
    }

    expect(receiver.requests).toHaveLength(0);
    const [delivery] = await deliveriesOf(partnerId);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 3 });
    const { attempts } = await stack.deps.webhookAdmin.getDelivery(delivery!.deliveryId);
    expect(attempts.map((a) => a.error)).toEqual(
      attempts.map(() => expect.stringMatching(/^not sent: the endpoint's circuit is open/)),
    );
    // Attempt 1 is counted at its next rung (60 s after it was due); attempt 2 at its own (300 s
    // after it was due); the last, which has no next rung, after its grace.
    const at = attempts.map((a) => new Date(a.attemptedAt).getTime());
    expect(at[0]! - dueAt).toBe(RETRY_DELAYS_S[0]! * 1000);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(RETRY_DELAYS_S[1]! * 1000);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(FAIRNESS_POLICY.lastAttemptGraceSeconds * 1000);
    // The ladder is not lengthened: attempt 2 was due within jitter (10 %) of attempt 1's rung.
    expect(at[1]! - at[0]!).toBeLessThanOrEqual((RETRY_DELAYS_S[0]! * 0.1 + RETRY_DELAYS_S[1]!) * 1000);
    expect(await emailsTo(alertEmail)).toHaveLength(1);
    expect(steps.every((delay) => delay <= 900)).toBe(true);
  });
});
