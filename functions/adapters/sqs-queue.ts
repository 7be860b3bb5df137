import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { MessageQueue } from '../domain/events/message-queue';

/**
 * JSON with every character outside printable ASCII written as a `\uXXXX` escape: the
 * same value for any JSON parser, and a body every SQS implementation accepts (SQS
 * refuses some code points, and stand-ins refuse everything beyond the BMP, i.e. emoji).
 */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

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
        MessageBody: asciiJson(message),
        DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
      }),
    );
  }
}
