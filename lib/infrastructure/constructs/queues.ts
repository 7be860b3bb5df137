import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import {
  QUEUES,
  deadLetterQueueName,
  queueName,
  type QueueDefinition,
  type QueueName,
} from '../../../functions/resources/resource-definitions';

export interface QueuesProps {
  readonly config: EnvironmentConfig;
}

/** Every queue of functions/resources/resource-definitions.ts, each with its dead-letter queue. */
export class Queues extends Construct {
  readonly queue: Readonly<Record<QueueName, Queue>>;
  readonly deadLetterQueue: Readonly<Record<QueueName, Queue>>;

  constructor(scope: Construct, id: string, { config }: QueuesProps) {
    super(scope, id);
    const definitions = Object.entries(QUEUES) as [QueueName, QueueDefinition][];
    const pairs = definitions.map(([name, definition]) => {
      const deadLetterQueue = new Queue(this, `${name}Dlq`, {
        queueName: deadLetterQueueName(config.resourcePrefix, name),
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      Validations.of(deadLetterQueue).acknowledge({
        id: 'Serverless::Serverless-SQSRedrivePolicy',
        reason:
          'This is the dead-letter queue: its messages wait here for an operator (alarm on depth > 0), there is nowhere further to go',
      });
      const queue = new Queue(this, name, {
        queueName: queueName(config.resourcePrefix, name),
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      return { name, queue, deadLetterQueue };
    });
    this.queue = Object.fromEntries(pairs.map((p) => [p.name, p.queue])) as Record<QueueName, Queue>;
    this.deadLetterQueue = Object.fromEntries(pairs.map((p) => [p.name, p.deadLetterQueue])) as Record<
      QueueName,
      Queue
    >;
  }
}
