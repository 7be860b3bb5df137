import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Logger } from '../domain/logger';

/**
 * Runs `handle` over every record of an SQS batch, concurrently, and reports the records
 * that threw as batch item failures: SQS makes only those visible again, and after the
 * queue's maxReceiveCount moves them to the dead-letter queue.
 */
export async function processSqsBatch(
  event: SQSEvent,
  logger: Logger,
  consumer: string,
  handle: (record: SQSRecord, index: number) => Promise<unknown>,
): Promise<SQSBatchResponse> {
  const results = await Promise.allSettled(event.Records.map((record, index) => handle(record, index)));
  const batchItemFailures = results.flatMap((result, index) => {
    if (result.status === 'fulfilled') return [];
    const record = event.Records[index] as SQSRecord;
    const error = result.reason as Error;
    logger.error({
      msg: 'queue message failed; left for redelivery',
      consumer,
      messageId: record.messageId,
      receiveCount: record.attributes?.ApproximateReceiveCount,
      error: error?.name,
      detail: error?.message,
    });
    return [{ itemIdentifier: record.messageId }];
  });
  return { batchItemFailures };
}

export type ParsedRecord<T> =
  { readonly ok: true; readonly message: T } | { readonly ok: false; readonly error: unknown };

/**
 * The message in a record's JSON body, or the error that says why it is not one: a bad
 * record then fails alone instead of failing the batch it came in.
 */
export function parseRecordBody<T>(record: SQSRecord, schema: { parse(value: unknown): T }): ParsedRecord<T> {
  try {
    return { ok: true, message: schema.parse(JSON.parse(record.body)) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** SQS gave the record out before (a handler failed or timed out with it, or a duplicate copy came back). */
export const redelivered = (record: SQSRecord): boolean =>
  Number(record.attributes?.ApproximateReceiveCount ?? '1') > 1;
