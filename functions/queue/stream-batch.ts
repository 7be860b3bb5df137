import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { Logger } from '../domain/logger';

/**
 * Runs `handle` over a DynamoDB stream batch in order. A stream is a log, not a queue:
 * Lambda checkpoints at the first reported failure and sends everything from there again,
 * so the batch stops at the first record that throws and reports only that one.
 */
export async function processStreamBatch(
  event: DynamoDBStreamEvent,
  logger: Logger,
  consumer: string,
  handle: (record: DynamoDBRecord) => Promise<unknown>,
): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    try {
      await handle(record);
    } catch (error) {
      const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
      logger.error({
        msg: 'stream record failed; the batch resumes from it',
        consumer,
        sequenceNumber,
        error: (error as Error)?.name,
        detail: (error as Error)?.message,
      });
      return { batchItemFailures: [{ itemIdentifier: sequenceNumber }] };
    }
  }
  return { batchItemFailures: [] };
}
