import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
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

const consumer = (): StreamConsumer =>
  createStreamConsumer({
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
