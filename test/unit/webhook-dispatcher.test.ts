import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Partner, PartnerId } from '../../functions/domain/partners/partner';
import type { Delivery, DeliveryMessage } from '../../functions/webhooks/delivery';
import { FAIRNESS_POLICY } from '../../functions/webhooks/endpoint-circuit';
import { METRIC } from '../../functions/domain/metrics';
import { RetrySchedule } from '../../functions/webhooks/retry-schedule';
import { WebhookAdmin } from '../../functions/webhooks/webhook-admin';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { WebhookDispatcher } from '../../functions/webhooks/webhook-dispatcher';
import { DeliveryBatchReaderOverPorts } from '../support/fakes/delivery-batch-reader-over-ports';
import { InMemoryDeliveryRepository } from '../support/fakes/in-memory-delivery-repository';
import { InMemorySigningSecrets, InMemoryWebhookEndpoints } from '../support/fakes/in-memory-webhook-endpoints';
import { RecordingLogger, RecordingMailer, RecordingQueue, RecordingTransport } from '../support/fakes/recording-ports';
import { ManualClock } from '../support/manual-clock';
import { type RecordingMetrics, recordingMetrics } from '../support/recording-metrics';
import { aQueuedDelivery } from '../support/webhook-fixtures';
import { FAST_PATH_BUDGET_MS } from '../../functions/webhooks/dispatch/dispatch-path';
import { InMemorySlowPathMoves } from '../support/fakes/in-memory-slow-path-moves';

const partnerId = randomUUID() as PartnerId;
const ENDPOINT_URL = 'https://partner.example.com/webhooks';

let clock: ManualClock;
let deliveries: InMemoryDeliveryRepository;
let queue: RecordingQueue<DeliveryMessage>;
let mailer: RecordingMailer;
let transport: RecordingTransport;
let logger: RecordingLogger;
let partner: Partner | undefined;
let dispatcher: WebhookDispatcher;
let endpoints: InMemoryWebhookEndpoints;
let batchReader: DeliveryBatchReaderOverPorts;
let metrics: RecordingMetrics;

beforeEach(() => {
  clock = new ManualClock();
  deliveries = new InMemoryDeliveryRepository();
  queue = new RecordingQueue();
  mailer = new RecordingMailer();
  transport = new RecordingTransport();
  logger = new RecordingLogger();
  metrics = recordingMetrics();
  partner = {
    id: partnerId,
    name: 'Acme',
    alertEmail: 'ops@acme.example',
    allowedOrigins: [],
    createdAt: clock.now().toISOString(),
  };
  const endpoint: WebhookEndpoint = {
    partnerId,
    url: ENDPOINT_URL,
    events: ['order.created'],
    createdAt: clock.now().toISOString(),
    updatedAt: clock.now().toISOString(),
    secretRotatedAt: clock.now().toISOString(),
    status: 'enabled',
    statusSince: clock.now().toISOString(),
  };
  endpoints = new InMemoryWebhookEndpoints();
  void endpoints.put(endpoint);
  // Reads the endpoints' map itself, so that a test sees apart the dispatcher's own endpoint reads.
  batchReader = new DeliveryBatchReaderOverPorts(deliveries, { get: async (id) => endpoints.endpoints.get(id) });
  const secrets = new InMemorySigningSecrets();
  void secrets.put(partnerId, { current: 'whsec_unit-test-secret', retiring: [] });
  dispatcher = new WebhookDispatcher({
    deliveries,
    batchReader,
    endpoints,
    gate: endpoints,
    path: { kind: 'fast', budgetMs: FAST_PATH_BUDGET_MS, slowQueue: new RecordingQueue() },
    slowPathMoves: new InMemorySlowPathMoves(deliveries),
    fairness: FAIRNESS_POLICY,
    attemptLeaseSeconds: 60,
    partners: { getPartner: async () => partner },
    secrets,
    transport,
    mailer,
    queue,
    schedule: new RetrySchedule([60, 300], () => 0),
    disableAfterSeconds: 5 * 24 * 3600,
    clock,
    logger,
    metrics,
  });
});

function aDelivery(state: Partial<Delivery> = {}): Delivery {
  return deliveries.seed(aQueuedDelivery(partnerId, clock.now().toISOString(), state));
}

const messageFor = (
  delivery: Delivery,
  attempt = delivery.attemptCount + 1,
  chain = delivery.chain,
): DeliveryMessage => ({
  deliveryId: delivery.deliveryId,
  chain,
  attempt,
  dueAt: clock.now().toISOString(),
});

/** One Lambda invocation with one message. */
const dispatch = (message: DeliveryMessage) => dispatcher.batch([message]).dispatch(message);
const failingEndpoint = () => {
  transport.answer = { kind: 'response', statusCode: 503, body: 'down', latencyMs: 1 };
};

describe('stale messages', () => {
  it('skips a message of a chain a replay superseded, without calling the partner', async () => {
    const delivery = aDelivery({ chain: 2 });
    expect(await dispatch(messageFor(delivery, 1, 1))).toBe('stale');
    expect(transport.posts).toEqual([]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ outcome: 'stale', reason: 'superseded by a replay' }),
    );
  });

  it('skips a message for a delivery already delivered', async () => {
    const delivery = aDelivery({ status: 'delivered', attemptCount: 1 });
    expect(await dispatch(messageFor(delivery, 1))).toBe('stale');
    expect(transport.posts).toEqual([]);
  });

  it('queues the next attempt again when a recorded attempt lost its retry message in a crash', async () => {
    const nextAttemptAt = new Date(clock.now().getTime() + 60_000).toISOString();
    const delivery = aDelivery({ attemptCount: 1, nextAttemptAt });
    expect(await dispatch(messageFor(delivery, 1))).toBe('stale');
    expect(transport.posts).toEqual([]);
    expect(queue.sent).toEqual([
      {
        message: { deliveryId: delivery.deliveryId, partnerId, chain: 1, attempt: 2, dueAt: nextAttemptAt },
        delaySeconds: 60,
      },
    ]);
  });

  it('answers unknown-delivery for a message whose delivery is gone', async () => {
    const message = { deliveryId: randomUUID(), chain: 1, attempt: 1, dueAt: clock.now().toISOString() };
    expect(await dispatch(message)).toBe('unknown-delivery');
  });
});

describe('a batch', () => {
  /** Holds the batch's read until released, and records every read that began. */
  const holdBatchRead = () => {
    const began: unknown[] = [];
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    const read = batchReader.read.bind(batchReader);
    batchReader.read = async (deliveryIds, partnerIds) => {
      began.push({ deliveryIds, partnerIds });
      await released;
      return read(deliveryIds, partnerIds);
    };
    const get = endpoints.get.bind(endpoints);
    endpoints.get = async (id) => {
      began.push({ endpoint: id });
      return get(id);
    };
    return { began, release };
  };

  it('reads its deliveries and the endpoint of the partner its messages name in one read, before any POST', async () => {
    const [first, second] = [aDelivery(), aDelivery()] as [Delivery, Delivery];
    const reads = holdBatchRead();
    const messages = [first, second].map((delivery) => ({ ...messageFor(delivery), partnerId }));
    const batch = dispatcher.batch(messages);
    const outcomes = Promise.all(messages.map((message) => batch.dispatch(message)));
    await new Promise((tick) => setTimeout(tick, 0));
    expect(reads.began).toEqual([{ deliveryIds: [first.deliveryId, second.deliveryId], partnerIds: [partnerId] }]);
    expect(transport.posts).toEqual([]);
    reads.release();

    expect(await outcomes).toEqual(['delivered', 'delivered']);
    expect(reads.began).toHaveLength(1);
    expect(transport.posts.map((post) => post.url)).toEqual([ENDPOINT_URL, ENDPOINT_URL]);
  });

  it('reads the endpoint once its delivery is read, for a message queued before messages named their partner', async () => {
    const delivery = aDelivery();
    const reads = holdBatchRead();
    const outcome = dispatch(messageFor(delivery));
    expect(reads.began).toEqual([{ deliveryIds: [delivery.deliveryId], partnerIds: [] }]);
    reads.release();

    expect(await outcome).toBe('delivered');
    expect(reads.began).toEqual([{ deliveryIds: [delivery.deliveryId], partnerIds: [] }, { endpoint: partnerId }]);
  });

  it('holds, without a POST, the deliveries of a partner whose endpoint the batch read found paused', async () => {
    await endpoints.changeStatus(partnerId, { status: 'paused', since: clock.now().toISOString() }, ['enabled']);
    const delivery = aDelivery();
    const message = { ...messageFor(delivery), partnerId };
    expect(await dispatcher.batch([message]).dispatch(message)).toBe('held');
    expect(transport.posts).toEqual([]);
  });
});

describe('a replay', () => {
  const admin = () =>
    new WebhookAdmin({
      partners: { getPartner: async () => partner },
      endpoints: new InMemoryWebhookEndpoints(),
      secrets: new InMemorySigningSecrets(),
      deliveries,
      queue,
      requireHttpsPublic: true,
      clock,
    });

  it('delivers the same body on a new chain and leaves the old chain’s messages stale', async () => {
    const failed = aDelivery({ status: 'failed', attemptCount: 3, alertStatus: 'sent' });
    await admin().replay(failed.deliveryId);

    const [replayMessage] = queue.sent.map((sent) => sent.message);
    expect(replayMessage).toMatchObject({ deliveryId: failed.deliveryId, chain: 2, attempt: 1 });
    expect(await dispatch(messageFor(failed, 3, 1))).toBe('stale');
    expect(await dispatch(replayMessage as DeliveryMessage)).toBe('delivered');
    expect(transport.posts.map((post) => [post.body, post.headers['X-Service-Delivery-ID']])).toEqual([
      [failed.body, failed.deliveryId],
    ]);
    expect(await deliveries.get(failed.deliveryId)).toMatchObject({ status: 'delivered', chain: 2, attemptCount: 1 });
  });

  it('refuses with ConcurrentModification when the delivery changed chain meanwhile', async () => {
    const delivery = aDelivery({ status: 'failed', attemptCount: 3 });
    // Another operator's replay moved it on between our read and our write.
    deliveries.startNewChain = async () => false;
    await expect(admin().replay(delivery.deliveryId)).rejects.toMatchObject({ name: 'ConcurrentModification' });
    expect(queue.sent).toEqual([]);
  });
});

describe('the failure alert', () => {
  it('mails the partner once the last attempt fails, naming the delivery and the last error', async () => {
    failingEndpoint();
    const delivery = aDelivery({ attemptCount: 2 });
    expect(await dispatch(messageFor(delivery))).toBe('failed');
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({
      to: 'ops@acme.example',
      subject: `Webhook delivery failed: order.created (${delivery.deliveryId})`,
    });
    expect(mailer.sent[0]?.text).toContain('HTTP 503');
    expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ status: 'failed', alertStatus: 'sent' });
  });

  it('sends the alert a crash left pending when the final message comes again', async () => {
    const delivery = aDelivery({ status: 'failed', attemptCount: 3, alertStatus: 'pending' });
    expect(await dispatch(messageFor(delivery, 3))).toBe('stale');
    expect(mailer.sent).toHaveLength(1);
    expect(await dispatch(messageFor(delivery, 3))).toBe('stale');
    expect(mailer.sent).toHaveLength(1);
  });

  it('fails the message while another handler holds the alert, and sends it once that lease lapses', async () => {
    const leaseUntil = new Date(clock.now().getTime() + 60_000).toISOString();
    const delivery = aDelivery({
      status: 'failed',
      attemptCount: 3,
      alertStatus: 'sending',
      alertLeaseUntil: leaseUntil,
    });
    await expect(dispatch(messageFor(delivery, 3))).rejects.toThrow(/being sent by another handler/);
    expect(mailer.sent).toEqual([]);

    clock.advance(61_000);
    expect(await dispatch(messageFor(delivery, 3))).toBe('stale');
    expect(mailer.sent).toHaveLength(1);
  });

  it('records no-address and logs an error when the partner has no alert address', async () => {
    partner = partner && { ...partner, alertEmail: undefined };
    failingEndpoint();
    const delivery = aDelivery({ attemptCount: 2 });
    expect(await dispatch(messageFor(delivery))).toBe('failed');
    expect(mailer.sent).toEqual([]);
    expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ alertStatus: 'no-address' });
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'webhook delivery failed and the partner has no alert address' }),
    );
  });

  it('gives the alert back when SES fails, so the redelivered message sends it', async () => {
    const delivery = aDelivery({ status: 'failed', attemptCount: 3, alertStatus: 'pending' });
    mailer.failure = new Error('Throttling');
    await expect(dispatch(messageFor(delivery, 3))).rejects.toThrow('Throttling');
    expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ alertStatus: 'pending' });

    mailer.failure = undefined;
    await dispatch(messageFor(delivery, 3));
    expect(mailer.sent).toHaveLength(1);
  });
});

describe('a first attempt', () => {
  it('reads its delivery before the POST, and sends its stored body', async () => {
    const delivery = aDelivery({ event: 'order.shipped', body: '{"event":"order.shipped","n":1}' });
    expect(await dispatch({ ...messageFor(delivery), partnerId })).toBe('delivered');
    expect(transport.posts.map((post) => [post.url, post.body, post.headers['X-Service-Event']])).toEqual([
      [ENDPOINT_URL, delivery.body, 'order.shipped'],
    ]);
    expect(await deliveries.get(delivery.deliveryId)).toMatchObject({ status: 'delivered', chain: 1, attemptCount: 1 });
  });

  it('is not sent again when a copy of its message comes after the attempt was recorded', async () => {
    const delivery = aDelivery();
    const message = { ...messageFor(delivery), partnerId };
    expect(await dispatch(message)).toBe('delivered');
    expect(await dispatch(message)).toBe('stale');
    expect(transport.posts).toHaveLength(1);
    expect(await deliveries.listAttempts(delivery.deliveryId)).toHaveLength(1);
  });
});

describe('endpoints', () => {
  const dispatchNamed = (delivery: Delivery) => dispatch({ ...messageFor(delivery), partnerId });

  it('are read with every batch: a pause reaches the next batch, whose deliveries are held without a POST', async () => {
    expect(await dispatchNamed(aDelivery())).toBe('delivered');
    await endpoints.changeStatus(partnerId, { status: 'paused', since: clock.now().toISOString() }, ['enabled']);
    const held = aDelivery();
    expect(await dispatchNamed(held)).toBe('held');
    expect(transport.posts).toHaveLength(1);
    expect(await deliveries.get(held.deliveryId)).toMatchObject({
      status: 'pending',
      heldAt: clock.now().toISOString(),
    });
  });

  it('are read again within a batch after a failing streak starts, so the next failure does not start it again', async () => {
    failingEndpoint();
    const markFailing = endpoints.markFailing.bind(endpoints);
    let marks = 0;
    endpoints.markFailing = async (id, since) => {
      marks += 1;
      return markFailing(id, since);
    };
    const messages = [aDelivery(), aDelivery()].map((delivery) => ({ ...messageFor(delivery), partnerId }));
    const batch = dispatcher.batch(messages);
    for (const message of messages) expect(await batch.dispatch(message)).toBe('retry-scheduled');
    expect(marks).toBe(1);
    expect((await endpoints.get(partnerId))?.failingSince).toBe(clock.now().toISOString());
  });

  it('are read again within a batch after a failing streak ends, so the next success does not end it again', async () => {
    await endpoints.markFailing(partnerId, clock.now());
    const markHealthy = endpoints.markHealthy.bind(endpoints);
    let marks = 0;
    endpoints.markHealthy = async (id) => {
      marks += 1;
      return markHealthy(id);
    };
    const messages = [aDelivery(), aDelivery()].map((delivery) => ({ ...messageFor(delivery), partnerId }));
    const batch = dispatcher.batch(messages);
    for (const message of messages) expect(await batch.dispatch(message)).toBe('delivered');
    expect(marks).toBe(1);
    expect((await endpoints.get(partnerId))?.failingSince).toBeUndefined();
  });
});

describe("the endpoint's circuit", () => {
  const circuitChanges = () =>
    metrics.recorded.filter((m) => m.name === METRIC.circuitStateChanges).map((m) => m.dimensions);

  it('counts CircuitStateChanges by the new state at each change: open, half-open (the probe), open again, half-open, closed', async () => {
    failingEndpoint();
    for (let i = 0; i < FAIRNESS_POLICY.failureThreshold; i += 1)
      expect(await dispatch(messageFor(aDelivery()))).toBe('retry-scheduled');
    expect(circuitChanges()).toEqual([{ state: 'open' }]);

    // Kept back while open: no change.
    expect(await dispatch(messageFor(aDelivery()))).toBe('deferred');
    clock.advance(FAIRNESS_POLICY.openSeconds(1) * 1000);
    expect(await dispatch(messageFor(aDelivery()))).toBe('retry-scheduled');
    expect(circuitChanges()).toEqual([{ state: 'open' }, { state: 'half-open' }, { state: 'open' }]);

    transport.answer = { kind: 'response', statusCode: 200, body: '', latencyMs: 1 };
    clock.advance(FAIRNESS_POLICY.openSeconds(2) * 1000);
    expect(await dispatch(messageFor(aDelivery()))).toBe('delivered');
    expect(await dispatch(messageFor(aDelivery()))).toBe('delivered');
    expect(circuitChanges()).toEqual([
      { state: 'open' },
      { state: 'half-open' },
      { state: 'open' },
      { state: 'half-open' },
      { state: 'closed' },
    ]);
    expect(transport.posts).toHaveLength(FAIRNESS_POLICY.failureThreshold + 3);
  });
});
