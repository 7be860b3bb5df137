import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { INVOICE_SWEEP_MINUTES, QUEUES } from '../../../functions/resources/resource-definitions';
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
 *
 * The sweep, run by an EventBridge schedule every INVOICE_SWEEP_MINUTES, invoices the
 * orders shipped over a minute ago that have none (a message lost, retrying, or parked in
 * the dead-letter queue) through the consumer's own idempotent path, and counts each in
 * UninvoicedShipmentsSwept, which alarms (alarms.ts).
 */
export class Invoicing extends Construct {
  readonly consumer: NodeFunction;
  readonly sweep: NodeFunction;
  readonly sweepSchedule: Rule;

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

    this.sweep = new NodeFunction(this, 'Sweep', { config, name: 'invoiceSweep', environment });
    queues.queue.orderEvents.grantSendMessages(this.sweep);
    const maxEventAge = Duration.minutes(INVOICE_SWEEP_MINUTES);
    // A run invoices whatever is due and the next comes on schedule: neither EventBridge nor Lambda retries one.
    this.sweep.live.configureAsyncInvoke({ retryAttempts: 0, maxEventAge });
    this.sweepSchedule = new Rule(this, 'SweepSchedule', {
      description: `${config.stage}: invoice the orders shipped over a minute ago that have no invoice`,
      schedule: Schedule.rate(Duration.minutes(INVOICE_SWEEP_MINUTES)),
      targets: [new LambdaFunction(this.sweep.live, { retryAttempts: 0, maxEventAge })],
    });
    const nextRunRetries =
      "A missed or failed run needs no replay: the next scheduled run finds the same uninvoiced shipments, and a failure raises the function's errors alarm";
    Validations.of(this.sweep).acknowledge(
      { id: 'Serverless::Serverless-LambdaDLQ', reason: nextRunRetries },
      { id: 'Serverless::Serverless-LambdaAsyncFailureDestination', reason: nextRunRetries },
    );
    Validations.of(this.sweepSchedule).acknowledge({
      id: 'Serverless::Serverless-EventBusDLQ',
      reason: nextRunRetries,
    });
  }
}
