import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * Whether these queues hold no message, visible, in flight or delayed: every event the
 * relay put there was consumed. The SQS stand-in keeps them in memory only, so until then
 * the relay's stored position must not pass them.
 */
export async function queuesDrained(sqs: SQSClient, queueUrls: readonly string[]): Promise<boolean> {
  for (const QueueUrl of queueUrls) {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl,
        AttributeNames: [
          'ApproximateNumberOfMessages',
          'ApproximateNumberOfMessagesNotVisible',
          'ApproximateNumberOfMessagesDelayed',
        ],
      }),
    );
    if (Object.values(Attributes).some((count) => Number(count) > 0)) return false;
  }
  return true;
}
