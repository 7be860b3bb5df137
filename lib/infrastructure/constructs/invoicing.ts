import { Validations } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { QUEUES } from '../../../functions/resources/resource-definitions';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { NodeFunction } from './node-function';
import type { Queues } from './queues';

export interface InvoicingProps {
  readonly config: EnvironmentConfig;
  readonly queues: Queues;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Invoicing off the request path: the outbox relay puts each shipment and refund on the
 * invoicing queue, and this consumer issues the order's Stripe invoice or credit note. A
 * message that keeps failing (Stripe down for long) moves to the queue's dead-letter
 * queue, whose depth alarms like every dead-letter queue's (alarms.ts). Its table access
 * and Stripe secret are granted by the stack.
 */
export class Invoicing extends Construct {
  readonly consumer: NodeFunction;

  constructor(scope: Construct, id: string, { config, queues, environment }: InvoicingProps) {
    super(scope, id);
    this.consumer = new NodeFunction(this, 'Consumer', { config, name: 'invoicing', environment });
    this.consumer.live.addEventSource(
      new SqsEventSource(queues.queue.invoicing, {
        batchSize: QUEUES.invoicing.consumerBatchSize,
        reportBatchItemFailures: true,
      }),
    );
    // invoice.issued and invoice.credited go on the order-events queue, as the outbox relay's events do.
    queues.queue.orderEvents.grantSendMessages(this.consumer);
    Validations.of(this.consumer).acknowledge({
      id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
      reason:
        "A message that keeps failing moves to its queue's dead-letter queue (redrive policy, alarm on depth > 0) with its body; an on-failure destination would only hold the batch's metadata",
    });
  }
}
