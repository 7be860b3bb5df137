/**
 * Adaptive concurrency per endpoint (docs/webhooks.md, "How throughput adapts"): the
 * dispatcher with the manual clock and a scripted receiver whose answers the test holds
 * and releases, so what is in flight at once is seen, not timed.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { DeliveryMessage } from '../../functions/webhooks/delivery';
import { FAIRNESS_POLICY } from '../../functions/webhooks/endpoint-circuit';
import { RetrySchedule } from '../../functions/webhooks/retry-schedule';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { WebhookDispatcher } from '../../functions/webhooks/webhook-dispatcher';
import type { TransportResult, WebhookTransport } from '../../functions/webhooks/webhook-transport';
import { DeliveryBatchReaderOverPorts } from '../support/fakes/delivery-batch-reader-over-ports';
import { InMemoryDeliveryRepository } from '../support/fakes/in-memory-delivery-repository';
import { InMemorySigningSecrets, InMemoryWebhookEndpoints } from '../support/fakes/in-memory-webhook-endpoints';
import { RecordingLogger, RecordingMailer, RecordingQueue } from '../support/fakes/recording-ports';
import { ManualClock } from '../support/manual-clock';
import { aQueuedDelivery } from '../support/webhook-fixtures';
import { METRIC } from '../../functions/domain/metrics';
import { EndpointVolume } from '../../functions/webhooks/dispatch/endpoint-volume';
import { type RecordingMetrics, recordingMetrics } from '../support/recording-metrics';
import { FAST_PATH_BUDGET_MS } from '../../functions/webhooks/dispatch/dispatch-path';
import { InMemorySlowPathMoves } from '../support/fakes/in-memory-slow-path-moves';

const partnerId = randomUUID() as PartnerId;
const LEASE_SECONDS = 60;
const OK_FAST: TransportResult = { kind: 'response', statusCode: 200, body: 'ok', latencyMs: 250 };

/** A receiver the test scripts: each POST gets `answer`, or waits in `held` until the test releases it. */
class ScriptedReceiver implements WebhookTransport {
  answer: TransportResult = OK_FAST;
  hold = false;
  posts = 0;
  readonly held: (() => void)[] = [];
  async post(): Promise<TransportResult> {
    this.posts += 1;
    const answer = this.answer;
    if (this.hold) await new Promise<void>((release) => this.held.push(release));
    return answer;
  }
  releaseAll(): void {
    this.held.splice(0).forEach((release) => release());
  }
}

let clock: ManualClock;
let deliveries: InMemoryDeliveryRepository;
let endpoints: InMemoryWebhookEndpoints;
let queue: RecordingQueue<DeliveryMessage>;
let receiver: ScriptedReceiver;
let dispatcher: WebhookDispatcher;
let metrics: RecordingMetrics;
/** Deliveries a minute from which the endpoint's lag is published with its own dimension, in these tests. */
const BUSY_PER_MINUTE = 3;

function anEndpoint(extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  const now = clock.now().toISOString();
  return {
    partnerId,
    url: 'https://partner.example.com/webhooks',
    events: ['order.created'],
    createdAt: now,
    updatedAt: now,
    secretRotatedAt: now,
    status: 'enabled',
    statusSince: now,
    ...extra,
  };
}

beforeEach(() => {
  clock = new ManualClock();
  deliveries = new InMemoryDeliveryRepository();
  queue = new RecordingQueue();
  receiver = new ScriptedReceiver();
  metrics = recordingMetrics();
  endpoints = new InMemoryWebhookEndpoints();
  void endpoints.put(anEndpoint());
  const secrets = new InMemorySigningSecrets();
  void secrets.put(partnerId, { current: 'whsec_unit-test-secret', retiring: [] });
  dispatcher = aDispatcher(secrets);
});

/** A dispatcher over this test's stores: a second one is what another process (or a restarted one) sees. */
function aDispatcher(secrets: InMemorySigningSecrets): WebhookDispatcher {
  return new WebhookDispatcher({
    deliveries,
    batchReader: new DeliveryBatchReaderOverPorts(deliveries, { get: async (id) => endpoints.endpoints.get(id) }),
    endpoints,
    gate: endpoints,
    path: { kind: 'fast', budgetMs: FAST_PATH_BUDGET_MS, slowQueue: new RecordingQueue() },
    slowPathMoves: new InMemorySlowPathMoves(deliveries),
    fairness: FAIRNESS_POLICY,
    attemptLeaseSeconds: LEASE_SECONDS,
    partners: { getPartner: async () => undefined },
    secrets,
    transport: receiver,
    mailer: new RecordingMailer(),
    queue,
    schedule: new RetrySchedule([60, 300], () => 0),
    disableAfterSeconds: 5 * 24 * 3600,
    clock,
    logger: new RecordingLogger(),
    metrics,
    endpointVolume: new EndpointVolume(BUSY_PER_MINUTE),
  });
}

const aMessage = (): DeliveryMessage => {
  const delivery = deliveries.seed(
    aQueuedDelivery(partnerId, clock.now().toISOString(), { occurredAt: clock.now().toISOString() }),
  );
  return {
    deliveryId: delivery.deliveryId,
    partnerId,
    chain: delivery.chain,
    attempt: 1,
    dueAt: clock.now().toISOString(),
  };
};

/** One invocation with `count` due messages for the endpoint. */
const aBatch = (count: number) => {
  const messages = Array.from({ length: count }, aMessage);
  const batch = dispatcher.batch(messages);
  return Promise.all(messages.map((message) => batch.dispatch(message)));
};

const concurrency = () => endpoints.endpoints.get(partnerId)?.circuit?.concurrency;

/**
 * How many attempts the endpoint takes at once now: `probe` invocations of one message each
 * (no sibling to wait for), held at the receiver; those over the cap are deferred. All are released after.
 */
async function attemptsTakenAtOnce(probe = FAIRNESS_POLICY.maxInFlight): Promise<number> {
  receiver.hold = true;
  const before = receiver.posts;
  const held = Promise.all(Array.from({ length: probe }, () => aBatch(1)));
  // Every message of the batch has been admitted or deferred once the queue and the receiver account for all.
  while (receiver.posts - before + queue.sent.length < probe) await new Promise((next) => setImmediate(next));
  const taken = receiver.posts - before;
  receiver.hold = false;
  receiver.releaseAll();
  await held;
  return taken;
}

async function deliverSequentially(count: number) {
  for (let i = 0; i < count; i += 1) expect(await aBatch(1)).toEqual(['delivered']);
}

describe("an endpoint's concurrency", () => {
  it('starts at two attempts in flight, and rises one step with each fast 2xx', async () => {
    expect(await attemptsTakenAtOnce(4)).toBe(2);
    expect(concurrency()).toBe(4); // each of the two fast answers raised it one step
    queue.sent.length = 0;
    await deliverSequentially(3);
    expect(concurrency()).toBe(7);
    expect(await attemptsTakenAtOnce(10)).toBe(7);
  });

  it('never passes the ceiling of 32', async () => {
    await deliverSequentially(FAIRNESS_POLICY.maxInFlight + 5);
    expect(concurrency()).toBe(FAIRNESS_POLICY.maxInFlight);
    expect(await attemptsTakenAtOnce(FAIRNESS_POLICY.maxInFlight + 4)).toBe(FAIRNESS_POLICY.maxInFlight);
  });

  it('halves on a 2xx slower than twice its own latency', async () => {
    await deliverSequentially(8); // 10, at 250 ms each
    receiver.answer = { ...OK_FAST, latencyMs: 2 * OK_FAST.latencyMs + 1 };
    await deliverSequentially(1);
    expect(concurrency()).toBe(5);
    receiver.answer = OK_FAST;
    queue.sent.length = 0;
    expect(await attemptsTakenAtOnce(8)).toBe(5);
  });

  it('keeps two attempts in flight on slow 2xx answers: slow is not failing', async () => {
    await deliverSequentially(1); // 3, its latency 250 ms
    receiver.answer = { ...OK_FAST, latencyMs: 2000 };
    await deliverSequentially(3);
    expect(concurrency()).toBe(FAIRNESS_POLICY.initialInFlight);
    queue.sent.length = 0;
    expect(await attemptsTakenAtOnce(4)).toBe(FAIRNESS_POLICY.initialInFlight);
  });

  it('takes no more than two at once while an attempt is in flight past the healthy latency (a receiver starting to hang)', async () => {
    await deliverSequentially(8); // 10
    receiver.hold = true;
    const first = aBatch(1);
    while (receiver.posts < 9) await new Promise((next) => setImmediate(next));
    clock.advance(FAIRNESS_POLICY.healthyLatencyMs + 1);
    expect(await attemptsTakenAtOnce(6)).toBe(FAIRNESS_POLICY.initialInFlight - 1);
    await first;
    queue.sent.length = 0;
    const now = concurrency() as number; // raised by the answers meanwhile
    expect(await attemptsTakenAtOnce(now + 4)).toBe(now); // answered: the whole concurrency again
  });

  it.each([
    ['a timeout', { kind: 'error', error: 'timed out after 10000 ms', latencyMs: 10000 }],
    ['a 500', { kind: 'response', statusCode: 500, body: 'oops', latencyMs: 20 }],
    ['a 429 without Retry-After', { kind: 'response', statusCode: 429, body: 'slow down', latencyMs: 20 }],
  ] as const)('falls to one attempt at a time on %s, and climbs again from one', async (_, failure) => {
    await deliverSequentially(8); // 10
    receiver.answer = failure;
    expect(await aBatch(1)).toEqual(['retry-scheduled']);
    expect(concurrency()).toBe(1);
    queue.sent.length = 0;
    receiver.answer = OK_FAST;
    expect(await attemptsTakenAtOnce(4)).toBe(1); // failing: one slot, the others deferred
    expect(concurrency()).toBe(2); // the held attempt's fast answer
  });
});

describe("fast and slow, against the endpoint's own latency", () => {
  const answeringIn = (latencyMs: number): TransportResult => ({ ...OK_FAST, latencyMs });
  const baseline = () => endpoints.endpoints.get(partnerId)?.circuit?.latencyBaselineMs;

  it('steps down when an endpoint that answers in 80 ms slows to 600 ms, though 600 ms is well under a second', async () => {
    receiver.answer = answeringIn(80);
    await deliverSequentially(10); // 12
    expect(baseline()).toBe(80);
    receiver.answer = answeringIn(600);
    await deliverSequentially(1);
    expect(concurrency()).toBe(6);
    await deliverSequentially(1);
    expect(concurrency()).toBe(3);
    queue.sent.length = 0;
    receiver.answer = answeringIn(80);
    expect(await attemptsTakenAtOnce(8)).toBe(3);
  });

  it.each([900, 2500])(
    'still rises when an endpoint always answers in %i ms: slow for a fixed threshold, usual for it',
    async (latencyMs) => {
      receiver.answer = answeringIn(latencyMs);
      await deliverSequentially(6);
      expect(baseline()).toBe(latencyMs);
      expect(concurrency()).toBeGreaterThanOrEqual(FAIRNESS_POLICY.initialInFlight + 5);
      queue.sent.length = 0;
      const now = concurrency() as number;
      expect(await attemptsTakenAtOnce(now + 4)).toBe(now);
    },
  );

  it('never counts an answer within 250 ms as slow, however fast the endpoint usually is', async () => {
    receiver.answer = answeringIn(5);
    await deliverSequentially(4); // 6
    receiver.answer = answeringIn(FAIRNESS_POLICY.slowLatencyFloorMs);
    await deliverSequentially(1);
    expect(concurrency()).toBe(7);
    receiver.answer = answeringIn(FAIRNESS_POLICY.slowLatencyFloorMs + 1);
    await deliverSequentially(1);
    expect(concurrency()).toBe(3);
  });

  it('judges by the baseline stored with the endpoint: another dispatcher sees a slowdown against it', async () => {
    receiver.answer = answeringIn(80);
    await deliverSequentially(10); // 12, learned by the first dispatcher
    const secrets = new InMemorySigningSecrets();
    await secrets.put(partnerId, { current: 'whsec_unit-test-secret', retiring: [] });
    dispatcher = aDispatcher(secrets);
    receiver.answer = answeringIn(600);
    await deliverSequentially(1);
    expect(concurrency()).toBe(6);
  });

  it('takes no more than two at once while an attempt is in flight past twice its own latency', async () => {
    receiver.answer = answeringIn(80);
    await deliverSequentially(8); // 10
    receiver.hold = true;
    const first = aBatch(1);
    while (receiver.posts < 9) await new Promise((next) => setImmediate(next));
    clock.advance(FAIRNESS_POLICY.slowLatencyFloorMs + 1); // under a second: not slow for a fixed threshold
    expect(await attemptsTakenAtOnce(6)).toBe(FAIRNESS_POLICY.initialInFlight - 1);
    await first;
  });
});

describe('a burst in one invocation', () => {
  it("goes out whole at a healthy endpoint's cap: each attempt over it waits for a sibling to finish, none goes back to the queue", async () => {
    expect(await aBatch(6)).toEqual(Array.from({ length: 6 }, () => 'delivered'));
    expect(queue.sent).toEqual([]);
    expect(receiver.posts).toBe(6);
  });

  it('is deferred beyond the cap when the endpoint is failing: one attempt, no waiting behind it', async () => {
    receiver.answer = { kind: 'response', statusCode: 500, body: 'oops', latencyMs: 20 };
    expect(await aBatch(1)).toEqual(['retry-scheduled']);
    queue.sent.length = 0;
    expect((await aBatch(3)).sort()).toEqual(['deferred', 'deferred', 'retry-scheduled']);
    expect(queue.sent.map((sent) => sent.delaySeconds)).toContain(FAIRNESS_POLICY.busyDeferSeconds(true));
  });
});

describe('a Retry-After', () => {
  it('on a 429 holds every attempt to the endpoint back until then, without a POST', async () => {
    receiver.answer = { kind: 'response', statusCode: 429, body: '', latencyMs: 5, retryAfter: '30' };
    expect(await aBatch(1)).toEqual(['retry-scheduled']);
    receiver.answer = OK_FAST;
    const posts = receiver.posts;
    queue.sent.length = 0;
    expect(await aBatch(2)).toEqual(['deferred', 'deferred']);
    expect(receiver.posts).toBe(posts);
    expect(queue.sent.map((sent) => sent.delaySeconds)).toEqual([30, 30]);
    clock.advance(30_000);
    expect(await aBatch(1)).toEqual(['delivered']);
  });
});

describe("the operator's max rate", () => {
  it('starts at most maxRate attempts per second, the rest deferred to the next second', async () => {
    await deliverSequentially(10);
    await endpoints.put({ ...(endpoints.endpoints.get(partnerId) as WebhookEndpoint), maxRate: 3 });
    queue.sent.length = 0;
    expect(await attemptsTakenAtOnce(6)).toBe(3);
    expect(queue.sent.map((sent) => sent.delaySeconds)).toEqual([1, 1, 1]);
    clock.advance(1000);
    queue.sent.length = 0;
    expect(await attemptsTakenAtOnce(6)).toBe(3);
  });
});

describe('a dispatcher that crashes holding slots', () => {
  it('leaks them only until their lease lapses', async () => {
    await deliverSequentially(2); // 4
    // A dispatcher took every slot and died before settling any.
    for (let slot = 0; slot < 4; slot += 1) {
      const admission = await endpoints.admit(partnerId, {
        now: clock.now(),
        leaseUntil: new Date(clock.now().getTime() + LEASE_SECONDS * 1000),
        token: randomUUID(),
        policy: FAIRNESS_POLICY,
      });
      expect(admission.kind).toBe('admitted');
    }
    expect(await aBatch(1)).toEqual(['deferred']);
    clock.advance(LEASE_SECONDS * 1000 + 1);
    queue.sent.length = 0;
    expect(await attemptsTakenAtOnce(6)).toBe(4);
  });
});

describe("a busy endpoint's own DeliveryLag", () => {
  it('is observed with its partner id once it had the threshold of deliveries this minute, on first attempts', async () => {
    await deliverSequentially(BUSY_PER_MINUTE + 1);
    expect(metrics.total(METRIC.deliveryLag)).toBe(BUSY_PER_MINUTE + 1 + 2);
    expect(metrics.total(METRIC.deliveryLag, { partner: partnerId })).toBe(2);
    clock.advance(60_000); // a new minute counts from zero
    await deliverSequentially(1);
    expect(metrics.total(METRIC.deliveryLag, { partner: partnerId })).toBe(2);
  });
});
