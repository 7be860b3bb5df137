/**
 * The webhook dispatcher against its floor. Deliveries are created by the real fan-out
 * (delivery records in DynamoDB, first-attempt messages on the deliveries queue); their
 * messages are then taken off the queue and handed to the real SQS-triggered dispatch
 * handler in events of the deployed batch size, as Lambda's event source would, with
 * enough invocations in flight for `concurrency` POSTs. The floor makes what any
 * dispatcher that records each attempt must, directly with the SDK, in the same batches:
 * each signed POST and the conditional write of its outcome. Reference series say where
 * the rest goes: the same with a consistent read of each batch's deliveries and endpoint
 * first (what the dispatcher does for a message it has to read: a retry, a replay, a
 * redelivery), the POSTs and writes free-flowing, the same POSTs on a new connection each
 * (the transport's policy) and with fetch on pooled connections (the retired target's
 * baseline). All series run in rounds, every other one in reverse order.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createAwsClients } from '../functions/adapters/aws-clients';
import type { DeliveryId } from '../functions/webhooks/delivery';
import type { OrderEventMessage } from '../functions/webhooks/order-events';
import { webhookBody } from '../functions/webhooks/webhook-fanout';
import { createWebhookDispatchHandler } from '../functions/webhooks/handlers/webhook-dispatch';
import { QUEUES } from '../functions/resources/resource-definitions';
import { BareCalls, signedPost } from './bare-calls';
import { bareSettings, type BenchStack } from './bench-stack';
import { type CapacityCount, meterCapacity, perRequest } from './capacity';
import { orderCreatedData } from '../test/support/webhook-fixtures';
import { inParallel } from './util';

export interface DispatchSide {
  readonly deliveries: number;
  readonly perSecond: number;
  /** Deliveries not recorded as delivered, or POSTs not answered 200. */
  readonly failures: number;
}

export interface DispatcherResult {
  /** POSTs in flight: invocations in flight × records per SQS event. */
  readonly concurrency: number;
  readonly batchSize: number;
  readonly service: DispatchSide;
  /** For reference: signed POSTs with fetch on pooled keep-alive connections, the retired 0.5× target's baseline. */
  readonly pooledPosts: DispatchSide;
  /** For reference: the same POSTs on a new connection each, as the dispatcher's transport makes them. */
  readonly newConnectionPosts: DispatchSide;
  /**
   * The target's floor: each POST and the conditional write of its outcome, nothing else, in
   * the queue's batches, `concurrency / batchSize` at a time, each waiting for its slowest, as
   * an SQS-triggered Lambda must: what any dispatcher that records each attempt does.
   */
  readonly floor: DispatchSide;
  /** For reference: the floor after one consistent read of each batch's deliveries and endpoint (bare-calls.ts): a dispatcher that reads every message. */
  readonly readFloor: DispatchSide;
  /** For reference: the floor free-flowing, `concurrency` at a time. */
  readonly postAndWrite: DispatchSide;
  /** Each round's dispatcher rate over its floor's, in round order: the target is judged on their median. */
  readonly floorRatioByRound: readonly number[];
  readonly capacityPerFanout: CapacityCount;
  readonly capacityPerAttempt: CapacityCount;
  readonly bareCapacityPerAttempt: CapacityCount;
}

export interface DispatcherOptions {
  readonly deliveries: number;
  readonly warmup: number;
  /** Rounds of every series; the deliveries are split evenly among them. */
  readonly rounds: number;
  /** POSTs in flight; a multiple of the deliveries queue's batch size. */
  readonly concurrency: number;
}

interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

/** The partner's endpoint: reads the body and answers 200, like a healthy receiver. */
async function startReceiver(): Promise<Receiver> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const orderCreated = (partnerId: string): OrderEventMessage => ({
  eventId: randomUUID(),
  partnerId,
  event: 'order.created',
  timestamp: new Date().toISOString(),
  data: orderCreatedData('org-bench'),
});

const toRecord = (message: Message, queueArn: string): SQSRecord => ({
  messageId: message.MessageId as string,
  receiptHandle: message.ReceiptHandle as string,
  body: message.Body ?? '',
  attributes: {
    ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
    SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
    SenderId: 'local',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: message.MD5OfBody ?? '',
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: 'us-east-1',
});

/** Every first-attempt message the fan-out queued, off the deliveries queue. */
async function takeQueuedMessages(bench: BenchStack, count: number): Promise<SQSRecord[]> {
  const { sqs } = bench.stack.deps.aws;
  const queueUrl = bench.stack.queueUrls.webhookDeliveries;
  const records: SQSRecord[] = [];
  for (let empty = 0; records.length < count && empty < 20; ) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'] }),
    );
    if (Messages.length === 0) empty += 1;
    records.push(...Messages.map((message) => toRecord(message, `arn:aws:sqs:us-east-1:000000000000:${bench.resourcePrefix}-webhook-deliveries`)));
  }
  if (records.length !== count) throw new Error(`expected ${count} queued deliveries, found ${records.length}`);
  return records;
}

/** Seconds `run` takes. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
}

export async function measureDispatcher(bench: BenchStack, options: DispatcherOptions): Promise<DispatcherResult> {
  const { deps } = bench.stack;
  const receiver = await startReceiver();
  const bareClients = createAwsClients(bench.standIns.endpoints);
  try {
    const partner = bench.partners[0];
    if (!partner) throw new Error('no partner provisioned');
    const configured = await deps.webhookAdmin.configureEndpoint({ partnerId: partner.partnerId, url: receiver.url });
    const secret = configured.generatedSecret as string;

    // Pending deliveries through the real fan-out (its DynamoDB capacity metered): for each
    // series that dispatches queued deliveries, a warm-up set and a measured set.
    const { warmup, deliveries: n, concurrency, rounds } = options;
    const batchSize = QUEUES.webhookDeliveries.consumerBatchSize;
    const invocations = concurrency / batchSize;
    if (!Number.isInteger(invocations) || warmup % batchSize || n % (rounds * batchSize)) {
      throw new Error(`concurrency, warm-up and a round's deliveries (1/${rounds}) must be multiples of the batch size ${batchSize}`);
    }
    const inBatches = <T>(items: readonly T[]) =>
      Array.from({ length: Math.ceil(items.length / batchSize) }, (_, i) => items.slice(i * batchSize, (i + 1) * batchSize));
    const QUEUED_SERIES = 4; // service, floor, readFloor, postAndWrite
    const events = Array.from({ length: QUEUED_SERIES * (warmup + n) }, () => orderCreated(partner.partnerId));
    const fanoutMeter = meterCapacity(deps.aws.db);
    await inParallel(events, concurrency, (event) => deps.functions.orderFanout.webhookFanout.fanOut(event));
    const capacityPerFanout = perRequest(fanoutMeter.take(), events.length);
    fanoutMeter.stop();
    const records = await takeQueuedMessages(bench, events.length);
    const deliveryIdOf = (record: SQSRecord) => (JSON.parse(record.body) as { deliveryId: DeliveryId }).deliveryId;
    const bodies = events.map(webhookBody);
    let taken = 0;
    const take = (count: number) => records.slice(taken, (taken += count));
    const setsOf = (count: number) => ({ service: take(count), floor: take(count), readFloor: take(count), postAndWrite: take(count) });
    const warmupSets = setsOf(warmup);
    const sets = setsOf(n);

    const handler = createWebhookDispatchHandler(() => Promise.resolve(deps.functions.webhookDispatch));
    const bare = new BareCalls(bareClients.db, bareSettings(bench, bareClients));
    const failures = { service: 0, floor: 0, readFloor: 0, postAndWrite: 0, keepAlive: 0, newConnection: 0 };
    // These POST bodies of the same size; which body goes with which delivery does not matter to them.
    const postsOf = (records: readonly SQSRecord[], bodiesToSend: readonly string[]) =>
      records.map((record, i) => ({ deliveryId: deliveryIdOf(record), body: bodiesToSend[i] as string }));
    const postAndRecord = async ({ deliveryId, body }: { deliveryId: DeliveryId; body: string }, series: 'floor' | 'postAndWrite') => {
      if ((await bare.postAndRecord(deliveryId, 1, receiver.url, body, secret)) !== 200) failures[series] += 1;
    };
    const run = {
      service: (records: readonly SQSRecord[]) =>
        inParallel(inBatches(records), invocations, async (batch) => {
          const event: SQSEvent = { Records: batch };
          failures.service += (await handler(event)).batchItemFailures.length;
        }),
      floor: (records: readonly SQSRecord[], bodiesToSend: readonly string[]) =>
        inParallel(inBatches(postsOf(records, bodiesToSend)), invocations, (batch) => Promise.all(batch.map((post) => postAndRecord(post, 'floor')))),
      readFloor: (records: readonly SQSRecord[]) =>
        inParallel(inBatches(records), invocations, async (batch) => {
          const statuses = await bare.deliver(batch.map((record) => ({ deliveryId: deliveryIdOf(record), partnerId: partner.partnerId })), secret);
          failures.readFloor += statuses.filter((status) => status !== 200).length;
        }),
      postAndWrite: (records: readonly SQSRecord[], bodiesToSend: readonly string[]) =>
        inParallel(postsOf(records, bodiesToSend), concurrency, (post) => postAndRecord(post, 'postAndWrite')),
      post: (batch: readonly string[], connection: 'keep-alive' | 'new') =>
        inParallel(batch, concurrency, async (body) => {
          if ((await signedPost(receiver.url, secret, body, connection)).status !== 200) {
            failures[connection === 'new' ? 'newConnection' : 'keepAlive'] += 1;
          }
        }),
    };

    // Warm-up: every series once, untimed, in the rounds' order. With a warm-up of the
    // dispatcher's and the bare calls' first 20 only, the first series of the first round
    // (the dispatcher) paid for warming what every series uses: run without the HTTP phases
    // before it, its first round went at about half the rate of its last.
    // The dispatcher's first batch also reads the signing secret (cached for a minute) and the
    // endpoint (cached for 5 s): the capacity per attempt is metered on the warm-up's second
    // half, as a dispatcher under steady traffic makes it.
    const warmupBodies = bodies.slice(0, warmup);
    const [coldHalf, warmHalf] = [warmupSets.service.slice(0, warmup / 2), warmupSets.service.slice(warmup / 2)];
    await run.service(coldHalf);
    const attemptMeter = meterCapacity(deps.aws.db);
    await run.service(warmHalf);
    const capacityPerAttempt = perRequest(attemptMeter.take(), warmHalf.length);
    attemptMeter.stop();
    const bareMeter = meterCapacity(bareClients.db);
    await run.floor(warmupSets.floor, warmupBodies);
    const bareCapacityPerAttempt = perRequest(bareMeter.take(), warmup);
    bareMeter.stop();
    await run.readFloor(warmupSets.readFloor);
    await run.postAndWrite(warmupSets.postAndWrite, warmupBodies);
    await run.post(warmupBodies, 'keep-alive');
    await run.post(warmupBodies, 'new');
    Object.assign(failures, { service: 0, floor: 0, readFloor: 0, postAndWrite: 0, keepAlive: 0, newConnection: 0 });

    // Rounds, every other one in reverse order, so a drift during the run (DynamoDB Local's
    // JIT, the VM's neighbours) hits every series alike.
    const perRound = n / rounds;
    const roundOf = <T>(items: readonly T[], round: number) => items.slice(round * perRound, (round + 1) * perRound);
    const measuredBodies = bodies.slice(warmup, warmup + n);
    const seconds = { service: 0, floor: 0, readFloor: 0, postAndWrite: 0, keepAlive: 0, newConnection: 0 };
    const series: Record<keyof typeof seconds, (round: number) => Promise<unknown>> = {
      service: (round) => run.service(roundOf(sets.service, round)),
      floor: (round) => run.floor(roundOf(sets.floor, round), roundOf(measuredBodies, round)),
      readFloor: (round) => run.readFloor(roundOf(sets.readFloor, round)),
      postAndWrite: (round) => run.postAndWrite(roundOf(sets.postAndWrite, round), roundOf(measuredBodies, round)),
      keepAlive: (round) => run.post(roundOf(measuredBodies, round), 'keep-alive'),
      newConnection: (round) => run.post(roundOf(measuredBodies, round), 'new'),
    };
    const order = Object.keys(series) as (keyof typeof seconds)[];
    const floorRatioByRound: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const took: Partial<Record<keyof typeof seconds, number>> = {};
      for (const name of round % 2 ? [...order].reverse() : order) seconds[name] += took[name] = await timed(() => series[name](round));
      // The same number of deliveries on both sides: the ratio of rates is the inverse ratio of times.
      floorRatioByRound.push((took.floor as number) / (took.service as number));
    }

    const stored = await inParallel(sets.service, concurrency, (record) => deps.deliveries.get(deliveryIdOf(record)));
    const notDelivered = stored.filter((delivery) => delivery?.status !== 'delivered').length;
    const side = (name: keyof typeof seconds, failed: number): DispatchSide => ({ deliveries: n, perSecond: n / seconds[name], failures: failed });
    return {
      concurrency,
      batchSize,
      service: side('service', Math.max(notDelivered, failures.service)),
      floor: side('floor', failures.floor),
      readFloor: side('readFloor', failures.readFloor),
      postAndWrite: side('postAndWrite', failures.postAndWrite),
      pooledPosts: side('keepAlive', failures.keepAlive),
      newConnectionPosts: side('newConnection', failures.newConnection),
      floorRatioByRound,
      capacityPerFanout,
      capacityPerAttempt,
      bareCapacityPerAttempt,
    };
  } finally {
    await receiver.close();
    bareClients.db.destroy();
  }
}
