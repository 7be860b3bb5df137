/**
 * The webhook dispatcher against its floor. Deliveries are created by the real fan-out
 * (delivery records in DynamoDB, first-attempt messages on the deliveries queue); their
 * messages are then taken off the queue and handed to the real SQS-triggered dispatch
 * handler in events of the deployed batch size, as Lambda's event source would, with
 * enough invocations in flight for `concurrency` POSTs. The floor (floors.ts) makes what
 * any dispatcher that reads its messages' deliveries, caps each endpoint's attempts in
 * flight and records each attempt must, in the same batches: one read per batch, then
 * each slot's claim, signed POST, release and the conditional write of its outcome. Both
 * run in rounds, every other one in reverse order.
 *
 * The deliveries go to `partners` endpoints (one receiver, a path each), in batches of
 * distinct partners, consecutive batches taking alternate halves of them: with two
 * invocations in flight no endpoint ever has more than two attempts out, so the
 * per-endpoint cap never defers one and both sides do the same work. One endpoint would
 * measure the cap (2 at a time), not the dispatcher.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { PartnerId } from '../functions/domain/partners/partner';
import type { DeliveryId } from '../functions/webhooks/delivery';
import { FAIRNESS_POLICY } from '../functions/webhooks/endpoint-circuit';
import type { OrderEventMessage } from '../functions/domain/events/order-event-message';
import { createWebhookDispatchHandler } from '../functions/lambdas/webhook-dispatch';
import { QUEUES } from '../functions/resources/resource-definitions';
import { orderCreatedData } from '../test/support/webhook-fixtures';
import type { BenchStack } from './bench-stack';
import { type CapacityCount, meterCapacity, perRequest } from './capacity';
import type { FloorServer } from './floors';
import { inParallel } from './util';
import { startReceiver } from './webhook-receivers';

interface DispatchSide {
  readonly perSecond: number;
  /** This process's CPU per delivery over the rounds (the receiver's share is the same on both sides). */
  readonly cpuMsPerDelivery: number;
  /** Deliveries not recorded as delivered, or POSTs not answered 200. */
  readonly failures: number;
}

export interface DispatcherResult {
  readonly batchSize: number;
  readonly service: DispatchSide;
  readonly floor: DispatchSide;
  /** Each round's dispatcher rate over its floor's, in round order: the target is judged on their median. */
  readonly floorRatioByRound: readonly number[];
  readonly capacityPerFanout: CapacityCount;
  readonly capacityPerAttempt: CapacityCount;
  readonly floorCapacityPerAttempt: CapacityCount;
}

export interface DispatcherOptions {
  readonly deliveries: number;
  /** Endpoints the deliveries are spread over: twice a batch, so that the two halves alternate. */
  readonly partners: number;
  /** Deliveries per side, untimed, before the rounds. */
  readonly warmup: number;
  /** Rounds of both series; the deliveries are split evenly among them. */
  readonly rounds: number;
  /** POSTs in flight; a multiple of the deliveries queue's batch size. */
  readonly concurrency: number;
}

/** The partner's endpoint: reads the body and answers 200, like a healthy receiver. */
const startHealthyReceiver = () =>
  startReceiver(
    () => undefined,
    (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'),
  );

/**
 * The records in batches of `batchSize` distinct partners, consecutive batches from
 * alternate halves of `partnerIds`: records of each partner in their queue order.
 */
function inPartnerBatches(
  records: readonly SQSRecord[],
  partnerIds: readonly string[],
  batchSize: number,
): SQSRecord[] {
  const byPartner = new Map(partnerIds.map((id) => [id, [] as SQSRecord[]]));
  for (const record of records)
    byPartner.get((JSON.parse(record.body) as { partnerId: string }).partnerId)?.push(record);
  const arranged: SQSRecord[] = [];
  for (let batch = 0; arranged.length < records.length; batch += 1) {
    const half = partnerIds.slice((batch % 2) * batchSize, ((batch % 2) + 1) * batchSize);
    for (const partnerId of half) {
      const next = byPartner.get(partnerId)?.shift();
      if (!next) throw new Error(`partner ${partnerId} ran out of deliveries`);
      arranged.push(next);
    }
  }
  return arranged;
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
  for (let empty = 0; records.length < count && empty < 20;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    if (Messages.length === 0) empty += 1;
    records.push(
      ...Messages.map((message) =>
        toRecord(message, `arn:aws:sqs:us-east-1:000000000000:${bench.resourcePrefix}-webhook-deliveries`),
      ),
    );
  }
  if (records.length !== count) throw new Error(`expected ${count} queued deliveries, found ${records.length}`);
  return records;
}

/** Seconds `run` takes, and the CPU milliseconds this process spent meanwhile. */
async function timed(run: () => Promise<unknown>): Promise<{ seconds: number; cpuMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await run();
  const spent = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuMs: (spent.user + spent.system) / 1000 };
}

export async function measureDispatcher(
  bench: BenchStack,
  floor: FloorServer,
  options: DispatcherOptions,
): Promise<DispatcherResult> {
  const { deps } = bench.stack;
  const receiver = await startHealthyReceiver();
  try {
    const { warmup, deliveries: n, concurrency, rounds } = options;
    const batchSize = QUEUES.webhookDeliveries.consumerBatchSize;
    const invocations = concurrency / batchSize;
    if (!Number.isInteger(invocations) || warmup % (2 * batchSize) || n % (rounds * batchSize)) {
      throw new Error(
        `concurrency, half the warm-up and a round's deliveries (1/${rounds}) must be multiples of the batch size ${batchSize}`,
      );
    }
    if (options.partners !== 2 * batchSize || invocations > 2) {
      throw new Error(
        `the deliveries go to ${2 * batchSize} endpoints in alternate halves, for at most 2 invocations at once`,
      );
    }
    const partnerIds = bench.partners.slice(0, options.partners).map((p) => p.partnerId as string);
    if (partnerIds.length < options.partners)
      throw new Error(`${options.partners} partners needed, ${partnerIds.length} provisioned`);
    const secrets = new Map<string, string>();
    for (const partnerId of partnerIds) {
      const configured = await deps.webhookAdmin.configureEndpoint({
        partnerId: partnerId as PartnerId,
        url: `${receiver.url}/${partnerId}`,
      });
      secrets.set(partnerId, configured.generatedSecret as string);
    }
    const inBatches = <T>(items: readonly T[]) =>
      Array.from({ length: Math.ceil(items.length / batchSize) }, (_, i) =>
        items.slice(i * batchSize, (i + 1) * batchSize),
      );

    // Pending deliveries through the real fan-out (its DynamoDB capacity metered): a warm-up set and a measured set per side.
    const events = Array.from({ length: 2 * (warmup + n) }, (_, i) =>
      orderCreated(partnerIds[i % partnerIds.length] as string),
    );
    const fanoutMeter = meterCapacity(deps.aws.db);
    await inParallel(events, concurrency, (event) => deps.functions.orderFanout.webhookFanout.fanOut(event));
    const capacityPerFanout = perRequest(fanoutMeter.take(), events.length);
    fanoutMeter.stop();
    const records = inPartnerBatches(await takeQueuedMessages(bench, events.length), partnerIds, batchSize);
    let taken = 0;
    const take = (count: number) => records.slice(taken, (taken += count));
    const warmupSets = { service: take(warmup), floor: take(warmup) };
    const sets = { service: take(n), floor: take(n) };
    const deliveryIdOf = (record: SQSRecord) => (JSON.parse(record.body) as { deliveryId: DeliveryId }).deliveryId;
    const deliveryOf = (record: SQSRecord) => JSON.parse(record.body) as { deliveryId: DeliveryId; partnerId: string };

    const handler = createWebhookDispatchHandler(() => Promise.resolve(deps.functions.webhookDispatch));
    const failures = { service: 0, floor: 0 };
    const run = {
      service: (batchOf: readonly SQSRecord[]) =>
        inParallel(inBatches(batchOf), invocations, async (batch) => {
          const event: SQSEvent = { Records: batch };
          failures.service += (await handler(event)).batchItemFailures.length;
        }),
      floor: (batchOf: readonly SQSRecord[]) =>
        inParallel(inBatches(batchOf), invocations, async (batch) => {
          const statuses = await floor.floors.deliverBatch(batch.map(deliveryOf), secrets, FAIRNESS_POLICY.maxInFlight);
          failures.floor += batch.length - statuses.filter((status) => status === 200).length;
        }),
    };

    // Warm-up, untimed: both sides, a round's worth or so. The dispatcher's first batch
    // also reads the signing secret (cached for a minute); its capacity per attempt is
    // metered on the warm-up's second half, as a dispatcher under steady traffic makes it.
    const half = (records: readonly SQSRecord[]) => [records.slice(0, warmup / 2), records.slice(warmup / 2)] as const;
    const [serviceCold, serviceWarm] = half(warmupSets.service);
    const [floorCold, floorWarm] = half(warmupSets.floor);
    await run.service(serviceCold);
    await run.floor(floorCold);
    const serviceMeter = meterCapacity(deps.aws.db);
    await run.service(serviceWarm);
    const capacityPerAttempt = perRequest(serviceMeter.take(), serviceWarm.length);
    serviceMeter.stop();
    const floorMeter = meterCapacity(floor.clients.db);
    await run.floor(floorWarm);
    const floorCapacityPerAttempt = perRequest(floorMeter.take(), floorWarm.length);
    floorMeter.stop();
    Object.assign(failures, { service: 0, floor: 0 });

    // Rounds, every other one in reverse order, so a drift during the run (DynamoDB Local's
    // JIT, the VM's neighbours) hits both sides alike.
    const perRound = n / rounds;
    const roundOf = (items: readonly SQSRecord[], round: number) =>
      items.slice(round * perRound, (round + 1) * perRound);
    const seconds = { service: 0, floor: 0 };
    const cpuMs = { service: 0, floor: 0 };
    const floorRatioByRound: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const took = { service: 0, floor: 0 };
      for (const side of round % 2 ? (['floor', 'service'] as const) : (['service', 'floor'] as const)) {
        const spent = await timed(() => run[side](roundOf(sets[side], round)));
        seconds[side] += took[side] = spent.seconds;
        cpuMs[side] += spent.cpuMs;
      }
      // The same number of deliveries on both sides: the ratio of rates is the inverse ratio of times.
      floorRatioByRound.push(took.floor / took.service);
    }

    const stored = await inParallel(sets.service, concurrency, (record) => deps.deliveries.get(deliveryIdOf(record)));
    const notDelivered = stored.filter((delivery) => delivery?.status !== 'delivered').length;
    return {
      batchSize,
      service: {
        perSecond: n / seconds.service,
        cpuMsPerDelivery: cpuMs.service / n,
        failures: Math.max(notDelivered, failures.service),
      },
      floor: { perSecond: n / seconds.floor, cpuMsPerDelivery: cpuMs.floor / n, failures: failures.floor },
      floorRatioByRound,
      capacityPerFanout,
      capacityPerAttempt,
      floorCapacityPerAttempt,
    };
  } finally {
    await receiver.close();
  }
}
