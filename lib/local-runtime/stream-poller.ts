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
 * With `positionFile`, each shard's position is written there and read at start, so a
 * restarted reader resumes after the last record it handed on, as Lambda's event source
 * does. Locally the queues it hands events to live in memory and die with the process, so
 * an event is handed on only once its messages were consumed: the file moves only when
 * `handedOn` says every queue it feeds is drained, and a restart after a kill reads again
 * what was still queued (at least once: the fan-out and invoicing are idempotent per event).
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
  /**
   * Whether every message handed to the queues so far was consumed (they are empty, none in
   * flight); the position file moves only then. Absent: as soon as the handler returns.
   */
  handedOn?: () => Promise<boolean>;
}): StreamConsumer {
  const { streams, handler } = options;
  let streamArn: string | undefined;
  /** Where each shard is to be read from next; a closed, fully read shard is dropped. */
  const positions = new Map<string, ShardPosition>();

  /** The positions last written to the file, as JSON: rewritten only when they moved. */
  let saved: string | undefined;

  function setPosition(shardId: string, position: ShardPosition): void {
    positions.set(shardId, position);
  }

  /** Writes the positions to the file if they moved and what was read up to them was handed on. */
  async function savePositions(): Promise<void> {
    if (!options.positionFile || !streamArn) return;
    const stored = JSON.stringify({ streamArn, shards: Object.fromEntries(positions) } satisfies StoredPositions);
    if (stored === saved) return;
    if (options.handedOn && !(await options.handedOn())) return;
    // Written whole and renamed over the old file, so a stop mid-write never leaves half a file.
    const partial = `${options.positionFile}.partial`;
    writeFileSync(partial, stored, { mode: 0o600 });
    renameSync(partial, options.positionFile);
    saved = stored;
  }

  /** The positions a previous run stored for this stream; none for another stream (the table was recreated) or no file. */
  function storedPositions(arn: string): Record<string, ShardPosition> {
    if (!options.positionFile) return {};
    try {
      const text = readFileSync(options.positionFile, 'utf8');
      const stored = JSON.parse(text) as StoredPositions;
      if (stored.streamArn !== arn) return {};
      saved = text;
      return stored.shards;
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
        const [failure] = response?.batchItemFailures ?? [];
        // A failure that names no record fails the batch from its first, never lets the reader move past it.
        if (failure) failedAt = failure.itemIdentifier || records[0]?.dynamodb?.SequenceNumber;
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
    // Also after an empty read: the queues drain after the batch that fed them.
    await savePositions();
    return { received, failed };
  }

  const loop = pollingLoop(async () => (await pollOnce()).received, {
    idleMs: options.intervalMs ?? 200,
    onError: options.onError,
  });
  return {
    pollOnce,
    start: loop.start,
    async stop() {
      await loop.stop();
      // A clean stop keeps what was handed on; whatever is still queued is read again at the next start.
      await savePositions().catch((error: unknown) => options.onError?.(error));
    },
  };
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
