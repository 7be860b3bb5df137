import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { pollingLoop } from './polling-loop';

export type StreamLambda = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

export interface StreamConsumer {
  /** One GetRecords per open shard, the handler over each batch, the shard's position moved past what succeeded. */
  pollOnce(): Promise<{ readonly received: number; readonly failed: number }>;
  /** Polls continuously until `stop`, as Lambda's stream event source does. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * What Lambda's DynamoDB stream event source does, for the local runtime and tests: read
 * each shard from its oldest record, hand batches to the same handler as a
 * DynamoDBStreamEvent, and on a reported failure read again from the failed record.
 */
export function createStreamConsumer(options: {
  db: DynamoDBClient;
  streams: DynamoDBStreamsClient;
  tableName: string;
  handler: StreamLambda;
  batchSize: number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}): StreamConsumer {
  const { streams, handler } = options;
  let streamArn: string | undefined;
  /** Where each shard is to be read from next; a closed, fully read shard is dropped. */
  const positions = new Map<string, { after?: string; from?: string } | 'done'>();

  async function openShards(): Promise<string[]> {
    streamArn ??= (await options.db.send(new DescribeTableCommand({ TableName: options.tableName }))).Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const shards = (StreamDescription?.Shards ?? []).map((shard) => shard.ShardId as string);
    for (const shard of shards) if (!positions.has(shard)) positions.set(shard, {});
    return shards.filter((shard) => positions.get(shard) !== 'done');
  }

  async function iteratorFor(shardId: string, position: { after?: string; from?: string }): Promise<string | undefined> {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(position.from
          ? { ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: position.from }
          : position.after
            ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position.after }
            : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  async function pollOnce(): Promise<{ received: number; failed: number }> {
    let received = 0;
    let failed = 0;
    for (const shardId of await openShards()) {
      const position = positions.get(shardId) as { after?: string; from?: string };
      const iterator = await iteratorFor(shardId, position);
      if (!iterator) continue;
      const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: options.batchSize }));
      if (Records.length === 0) {
        if (!NextShardIterator) positions.set(shardId, 'done');
        continue;
      }
      received += Records.length;
      const records = Records.map((record) => toLambdaRecord(record, streamArn as string));
      let failedAt: string | undefined;
      try {
        const response = await handler({ Records: records });
        failedAt = response?.batchItemFailures?.[0]?.itemIdentifier;
      } catch (error) {
        // A thrown handler fails the whole batch, as in Lambda.
        options.onError?.(error);
        failedAt = records[0]?.dynamodb?.SequenceNumber;
      }
      if (failedAt) {
        failed += 1;
        positions.set(shardId, { from: failedAt });
      } else {
        positions.set(shardId, { after: records[records.length - 1]?.dynamodb?.SequenceNumber });
      }
    }
    return { received, failed };
  }

  const loop = pollingLoop(async () => (await pollOnce()).received, { idleMs: options.intervalMs ?? 200, onError: options.onError });
  return { pollOnce, start: loop.start, stop: loop.stop };
}

/** The SDK's stream record in the JSON shape Lambda hands a handler (epoch seconds, plain attribute values). */
function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: change.ApproximateCreationDateTime ? Math.floor(change.ApproximateCreationDateTime.getTime() / 1000) : undefined,
      Keys: change.Keys as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      NewImage: change.NewImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
}
