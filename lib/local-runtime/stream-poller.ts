import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pollingLoop } from './polling-loop';

export type StreamLambda = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

export interface StreamConsumer {
  /** One GetRecords per open shard, the handler over each batch, the shard's position moved past what succeeded. */
  pollOnce(): Promise<{ readonly received: number; readonly failed: number }>;
  /** Polls continuously until `stop`, as Lambda's stream event source does. */
  start(): void;
  stop(): Promise<void>;
}

/** Where a shard is to be read from next: after a handled record, from a failed one, or from its oldest (`{}`); `done` when closed and read. */
type ShardPosition = { readonly after?: string; readonly from?: string } | 'done';

/** The file `positionFile` holds: the stream's ARN (a recreated table has a new stream) and each shard's position. */
interface StoredPositions {
  readonly streamArn: string;
  readonly shards: Record<string, ShardPosition>;
}

/**
 * What Lambda's DynamoDB stream event source does, for the local runtime and tests: read
 * each shard from its oldest record, hand batches to the same handler as a
 * DynamoDBStreamEvent, and on a reported failure read again from the failed record.
 *
 * With `positionFile`, each shard's position is written there whenever it moves and read
 * at start, so a restarted reader resumes after the last record it handled, as Lambda's
 * event source does: a record handled (relayed, or skipped by the handler) before a
 * restart is not handled again, and a failed one is read again from where it failed.
 */
export function createStreamConsumer(options: {
  db: DynamoDBClient;
  streams: DynamoDBStreamsClient;
  tableName: string;
  handler: StreamLambda;
  batchSize: number;
  intervalMs?: number;
  onError?: (error: unknown) => void;
  /** A JSON file keeping each shard's position across restarts (the local runtime's `.local/`); in memory only when absent. */
  positionFile?: string;
}): StreamConsumer {
  const { streams, handler } = options;
  let streamArn: string | undefined;
  /** Where each shard is to be read from next; a closed, fully read shard is dropped. */
  const positions = new Map<string, ShardPosition>();

  function setPosition(shardId: string, position: ShardPosition): void {
    positions.set(shardId, position);
    if (!options.positionFile || !streamArn) return;
    const stored: StoredPositions = { streamArn, shards: Object.fromEntries(positions) };
    // Written whole and renamed over the old file, so a stop mid-write never leaves half a file.
    const partial = `${options.positionFile}.partial`;
    writeFileSync(partial, JSON.stringify(stored), { mode: 0o600 });
    renameSync(partial, options.positionFile);
  }

  /** The positions a previous run stored for this stream; none for another stream (the table was recreated) or no file. */
  function storedPositions(arn: string): Record<string, ShardPosition> {
    if (!options.positionFile) return {};
    try {
      const stored = JSON.parse(readFileSync(options.positionFile, 'utf8')) as StoredPositions;
      return stored.streamArn === arn ? stored.shards : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') options.onError?.(error);
      return {};
    }
  }

  async function openShards(): Promise<string[]> {
    if (!streamArn) {
      streamArn = (await options.db.send(new DescribeTableCommand({ TableName: options.tableName }))).Table
        ?.LatestStreamArn;
      if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
      for (const [shard, position] of Object.entries(storedPositions(streamArn))) positions.set(shard, position);
    }
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const shards = (StreamDescription?.Shards ?? []).map((shard) => shard.ShardId as string);
    for (const shard of shards) if (!positions.has(shard)) positions.set(shard, {});
    // A shard gone from the stream (aged out) is not read again: its stored position goes too.
    for (const known of [...positions.keys()]) if (!shards.includes(known)) positions.delete(known);
    return shards.filter((shard) => positions.get(shard) !== 'done');
  }

  async function iteratorFor(
    shardId: string,
    position: { after?: string; from?: string },
  ): Promise<string | undefined> {
    const iterator = (at: Pick<GetShardIteratorCommandInput, 'ShardIteratorType' | 'SequenceNumber'>) =>
      streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...at }));
    const oldest = { ShardIteratorType: 'TRIM_HORIZON' } as const;
    const at = position.from
      ? ({ ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: position.from } as const)
      : position.after
        ? ({ ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position.after } as const)
        : oldest;
    try {
      return (await iterator(at)).ShardIterator;
    } catch (error) {
      // The stored record has aged out of the stream (24 h): everything still in it is newer.
      if ((error as Error).name !== 'TrimmedDataAccessException' || at === oldest) throw error;
      return (await iterator(oldest)).ShardIterator;
    }
  }

  async function pollOnce(): Promise<{ received: number; failed: number }> {
    let received = 0;
    let failed = 0;
    for (const shardId of await openShards()) {
      const position = positions.get(shardId) as { after?: string; from?: string };
      const iterator = await iteratorFor(shardId, position);
      if (!iterator) continue;
      const { Records = [], NextShardIterator } = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: options.batchSize }),
      );
      if (Records.length === 0) {
        if (!NextShardIterator) setPosition(shardId, 'done');
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
        setPosition(shardId, { from: failedAt });
      } else {
        setPosition(shardId, { after: records[records.length - 1]?.dynamodb?.SequenceNumber });
      }
    }
    return { received, failed };
  }

  const loop = pollingLoop(async () => (await pollOnce()).received, {
    idleMs: options.intervalMs ?? 200,
    onError: options.onError,
  });
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
      ApproximateCreationDateTime: change.ApproximateCreationDateTime
        ? Math.floor(change.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
      Keys: change.Keys as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      NewImage: change.NewImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
}
