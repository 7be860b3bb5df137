import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DeleteMessageCommand, PurgeQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createAwsClients } from '../../functions/adapters/aws-clients';
import { clientOptions } from '../../functions/adapters/aws/client-options';
import { SqsMessageQueue } from '../../functions/adapters/sqs-queue';
import type { RuntimeConfig } from '../../functions/config';
import { OrderOutboxRelay, toOutboxRecord } from '../../functions/domain/events/order-outbox';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';
import { createOrderOutboxRelayHandler } from '../../functions/lambdas/order-outbox-relay';
import { ORDER_OUTBOX_BATCH_SIZE, OUTBOX_KEY_PREFIX, tableName } from '../../functions/resources/resource-definitions';
import { provisionLocalResources } from '../../lib/local-runtime/provision';
import { queuesDrained } from '../../lib/local-runtime/queues-drained';
import { createStreamConsumer, type StreamConsumer } from '../../lib/local-runtime/stream-poller';
import { ManualClock } from '../support/manual-clock';
import { noMetrics } from '../../functions/domain/metrics';

const standIns = inject('standIns');
const aws = createAwsClients(standIns.endpoints);
const prefix = `t${randomUUID().slice(0, 8)}`;
const clock = new ManualClock();
const logs: Record<string, unknown>[] = [];
const logger = {
  info: (e: Record<string, unknown>) => logs.push({ level: 'info', ...e }),
  error: (e: Record<string, unknown>) => logs.push({ level: 'error', ...e }),
};
let queueUrls: Awaited<ReturnType<typeof provisionLocalResources>>;
let queueUrl = '';

const consumer = (stored: { positionFile?: string; handedOn?: () => Promise<boolean> } = {}): StreamConsumer =>
  createStreamConsumer({
    ...stored,
    db: aws.db as unknown as DynamoDBClient,
    streams: new DynamoDBStreamsClient(clientOptions(standIns.endpoints.dynamodb)),
    tableName: tableName(prefix, 'orders'),
    batchSize: ORDER_OUTBOX_BATCH_SIZE,
    // The queue URL is read per relay, so a test can point it nowhere and back.
    handler: createOrderOutboxRelayHandler(async () => ({
      config: {} as RuntimeConfig,
      clock,
      logger,
      metrics: noMetrics,
      orderOutboxRelay: new OrderOutboxRelay(
        {
          send: (message, delay) => new SqsMessageQueue<OrderEventMessage>(aws.sqs, queueUrl).send(message, delay),
        },
        { send: async () => undefined },
      ),
    })),
  });

const event = (name: string): OrderEventMessage => ({
  eventId: `evt_${randomUUID()}`,
  partnerId: randomUUID(),
  event: 'order.created',
  timestamp: clock.now().toISOString(),
  data: {
    order_id: randomUUID(),
    partner_org_id: 'org-1',
    items: [{ product_id: 'GLV-1', name, quantity: 1, price: 12.5 }],
  },
});

const writeOutbox = (message: OrderEventMessage) => {
  const record = toOutboxRecord(message, clock);
  return aws.db.send(
    new PutCommand({
      TableName: tableName(prefix, 'orders'),
      Item: {
        pk: `${OUTBOX_KEY_PREFIX}${record.eventId}`,
        sk: 'OUTBOX',
        message: record.message,
        ttl: record.expiresAt,
      },
    }),
  );
};

const received = async (): Promise<OrderEventMessage[]> => {
  const { Messages = [] } = await aws.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrls.orderEvents, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
  );
  return Messages.map((m) => JSON.parse(m.Body ?? ''));
};

beforeAll(async () => {
  queueUrls = await provisionLocalResources(aws, prefix);
  queueUrl = queueUrls.orderEvents;
});

describe('the orders outbox relay', () => {
  it('carries a committed outbox item to the order-events queue intact, emoji included, and ignores order items', async () => {
    const relay = consumer();
    const message = event('Nitrile gloves 🧤 größe M');
    await aws.db.send(
      new PutCommand({
        TableName: tableName(prefix, 'orders'),
        Item: { pk: 'ORDER#x', sk: 'ORDER', status: 'pending' },
      }),
    );
    await writeOutbox(message);

    expect(await relay.pollOnce()).toEqual({ received: 2, failed: 0 });
    expect(await received()).toEqual([message]);
    expect(await relay.pollOnce()).toEqual({ received: 0, failed: 0 });
  });

  it('reads a record again from where it failed, so a queue outage loses no event', async () => {
    const relay = consumer();
    // A new consumer starts at the oldest record, as Lambda's TRIM_HORIZON does: the first test's event comes again.
    await relay.pollOnce();
    expect((await received()).length).toBe(1);
    const message = event('Exam gloves');
    await writeOutbox(message);

    queueUrl = `${queueUrls.orderEvents}-missing`;
    expect(await relay.pollOnce()).toEqual({ received: 1, failed: 1 });
    expect(logs.some((line) => line.msg === 'stream record failed; the batch resumes from it')).toBe(true);

    queueUrl = queueUrls.orderEvents;
    expect(await relay.pollOnce()).toEqual({ received: 1, failed: 0 });
    expect(await received()).toEqual([message]);
  });
});

describe('the local relay, killed and started again (its queues live in memory)', () => {
  const positionFile = join(mkdtempSync(join(tmpdir(), 'relay-position-')), 'orders-stream-position.json');
  const kept = () => ({
    positionFile,
    handedOn: () => queuesDrained(aws.sqs, [queueUrls.orderEvents]),
  });
  /** Receives the queued events and deletes them: what the fan-out does once it has handled them. */
  const consume = async (): Promise<string[]> => {
    const { Messages = [] } = await aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrls.orderEvents, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    for (const { ReceiptHandle } of Messages)
      await aws.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrls.orderEvents, ReceiptHandle }));
    return Messages.map((m) => (JSON.parse(m.Body ?? '') as OrderEventMessage).eventId);
  };

  it('keeps its stored position behind an event still queued, so a kill before it is consumed relays it again, and moves on once it is', async () => {
    queueUrl = queueUrls.orderEvents;
    await aws.sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrls.orderEvents }));
    // Everything the stream holds so far is read and consumed: the stored position starts after it.
    const first = consumer(kept());
    while ((await first.pollOnce()).received > 0) await consume();
    await consume();
    await first.pollOnce();
    expect(existsSync(positionFile)).toBe(true);
    const settled = readFileSync(positionFile, 'utf8');

    const message = event('Sterile gauze');
    await writeOutbox(message);
    expect(await first.pollOnce()).toEqual({ received: 1, failed: 0 });
    // Relayed but not consumed: the stored position stays where it was.
    expect(readFileSync(positionFile, 'utf8')).toBe(settled);

    // Killed: no stop, and the in-memory queue dies with the process.
    await aws.sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrls.orderEvents }));
    const restarted = consumer(kept());
    expect(await restarted.pollOnce()).toEqual({ received: 1, failed: 0 });
    expect(await consume()).toEqual([message.eventId]);

    // Consumed: the next poll stores the position past it, and a later start reads nothing again.
    await restarted.pollOnce();
    expect(readFileSync(positionFile, 'utf8')).not.toBe(settled);
    expect(await consumer(kept()).pollOnce()).toEqual({ received: 0, failed: 0 });
  });
});
