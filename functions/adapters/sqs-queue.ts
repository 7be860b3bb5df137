import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { MessageQueue } from '../domain/webhooks/message-queue';

/** A JSON message queue on SQS. */
export class SqsMessageQueue<T> implements MessageQueue<T> {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: T, delaySeconds: number): Promise<void> {
    if (!this.queueUrl) throw new Error('The queue URL is not configured');
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
      }),
    );
  }
}
