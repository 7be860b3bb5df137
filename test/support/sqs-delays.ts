import type { SQSClient } from '@aws-sdk/client-sqs';

export interface SentMessage {
  readonly queueUrl: string;
  /** The DelaySeconds the service asked for. */
  readonly delaySeconds: number;
  readonly body: any;
}

/**
 * Tests move time with the ManualClock, not by waiting: this records every SendMessage
 * the service makes (queue, DelaySeconds, body) and then sends it with no delay, so the
 * message is receivable at once. The service's own `dueAt` check (a message that arrives
 * early is sent on again without an attempt) is what then enforces the schedule, against
 * the ManualClock. The DelaySeconds asked for are asserted from the record.
 */
export function recordSqsDelays(sqs: SQSClient): SentMessage[] {
  const sent: SentMessage[] = [];
  sqs.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'SendMessageCommand') {
        const input = args.input as { QueueUrl: string; MessageBody: string; DelaySeconds?: number };
        sent.push({
          queueUrl: input.QueueUrl,
          delaySeconds: input.DelaySeconds ?? 0,
          body: JSON.parse(input.MessageBody),
        });
        input.DelaySeconds = 0;
      }
      return next(args);
    },
    { step: 'initialize', name: 'recordSqsDelays' },
  );
  return sent;
}
