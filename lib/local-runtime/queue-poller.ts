import { AWS_REQUEST_BOUNDS } from '../../functions/adapters/aws/request-bounds';
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { pollingLoop } from './polling-loop';

export type SqsLambda = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

interface PollResult {
  readonly received: number;
  /** Messages the handler reported as failed: left on the queue, visible again after the visibility timeout. */
  readonly failed: readonly { readonly messageId: string; readonly receiptHandle: string }[];
}

export interface QueueConsumer {
  /** One ReceiveMessage (long-polling up to `waitSeconds`), the handler over the batch, deletes of its successes. */
  pollOnce(options?: { waitSeconds?: number }): Promise<PollResult>;
  /** Polls continuously until `stop`, as Lambda's SQS event source does, `concurrency` batches at a time. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * What Lambda's SQS event source mapping does, for the local runtime and tests: receive a
 * batch, hand it to the same handler as an SQSEvent, delete what succeeded, and leave
 * `batchItemFailures` on the queue for redelivery. With `concurrency` above 1, that many
 * polling loops run side by side, as concurrent invocations do: a batch waiting on a slow
 * receiver holds its own loop only, and the others keep taking batches.
 */
export function createQueueConsumer(options: {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  handler: SqsLambda;
  batchSize: number;
  /** Batches handled at once (default 1). */
  concurrency?: number;
  onError?: (error: unknown) => void;
}): QueueConsumer {
  const { sqs, queueUrl, handler } = options;

  async function pollOnce(
    { waitSeconds = 0 } = {},
    signal?: AbortSignal,
    onReceived?: (count: number) => void,
  ): Promise<PollResult> {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: options.batchSize,
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      // A long poll waits by design: the SDK's bounded request timeout (request-bounds.ts) would cut every empty
      // poll short and could lose a message received in the meantime to its visibility timeout.
      { abortSignal: signal, requestTimeout: (waitSeconds + AWS_REQUEST_BOUNDS.requestTimeoutMs / 1000) * 1000 },
    );
    onReceived?.(Messages.length);
    if (Messages.length === 0) return { received: 0, failed: [] };
    const records = Messages.map((message) => toRecord(message, options.queueArn));
    let failedIds: Set<string>;
    try {
      const response = await handler({ Records: records });
      failedIds = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      // A thrown handler fails the whole batch, as in Lambda.
      options.onError?.(error);
      failedIds = new Set(records.map((record) => record.messageId));
    }
    const succeeded = records.filter((record) => !failedIds.has(record.messageId));
    if (succeeded.length) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: succeeded.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
        }),
      );
    }
    return {
      received: records.length,
      failed: records
        .filter((record) => failedIds.has(record.messageId))
        .map((record) => ({ messageId: record.messageId, receiptHandle: record.receiptHandle })),
    };
  }

  const idle = new IdleWatch();
  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, () =>
    pollingLoop(
      async (signal) => {
        const role = await idle.turn(signal);
        if (role === 'stopped') return 0;
        let reported = false;
        // Reported as soon as the receive returns, before the batch is handled: the others must not wait on a slow batch.
        const report = (received: number) => {
          reported = true;
          idle.polled(role, received);
        };
        try {
          return (await pollOnce({ waitSeconds: 5 }, signal, report)).received;
        } finally {
          if (!reported) idle.polled(role, 0);
        }
      },
      { onError: options.onError },
    ),
  );
  return {
    pollOnce: (opts) => pollOnce(opts),
    start: () => loops.forEach((loop) => loop.start()),
    stop: async () => {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}

/**
 * While a queue is empty, one of its loops long-polls it and the others wait for that one to
 * receive something: an idle `npm start` keeps one request open per queue instead of one per
 * loop (twenty-four), each ending and starting again every few seconds.
 */
class IdleWatch {
  // Empty until a poll says otherwise: at start one loop watches, as when idle.
  private empty = true;
  private watching = false;
  private parked: (() => void)[] = [];

  /** How this loop polls now: as the one watching the empty queue, as one of many, or not (stopped while it waited). */
  async turn(signal: AbortSignal): Promise<'watch' | 'work' | 'stopped'> {
    while (this.empty && this.watching) {
      if (signal.aborted) return 'stopped';
      await new Promise<void>((woken) => {
        const wake = () => {
          signal.removeEventListener('abort', wake);
          woken();
        };
        this.parked.push(wake);
        signal.addEventListener('abort', wake);
      });
    }
    if (signal.aborted) return 'stopped';
    if (!this.empty) return 'work';
    this.watching = true;
    return 'watch';
  }

  /** A poll ended with `received` messages: the queue is empty, or every waiting loop goes back to work. */
  polled(role: 'watch' | 'work', received: number): void {
    if (role === 'watch') this.watching = false;
    this.empty = received === 0;
    // The watcher's turn ended (its long poll came back empty or with messages): the others poll, or one of them watches next.
    if (role === 'watch' || !this.empty) this.parked.splice(0).forEach((wake) => wake());
  }
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId as string,
    receiptHandle: message.ReceiptHandle as string,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          stringValue: value.StringValue,
          dataType: value.DataType ?? 'String',
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
}
