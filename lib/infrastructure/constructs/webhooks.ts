import { Duration, Validations } from 'aws-cdk-lib';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { ORDER_OUTBOX_BATCH_SIZE, OUTBOX_KEY_PREFIX, QUEUES } from '../../../functions/resources/resource-definitions';
import { NodeFunction } from './node-function';
import type { Queues } from './queues';
import type { Secrets } from './secrets';

export interface WebhooksProps {
  readonly config: EnvironmentConfig;
  readonly queues: Queues;
  readonly secrets: Secrets;
  /** The orders table, whose stream carries each order change's outbox item. */
  readonly ordersTable: ITable;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Committed order changes reach the order-events queue through the orders table's stream;
 * order events fan out into frozen delivery records; the dispatcher signs and sends them,
 * retrying through the deliveries queue, and alerts the partner by e-mail after the last retry.
 */
export class Webhooks extends Construct {
  readonly orderOutboxRelay: NodeFunction;
  readonly orderFanout: NodeFunction;
  readonly webhookDispatch: NodeFunction;
  readonly webhookSlowDispatch: NodeFunction;
  readonly alertSender: EmailIdentity;

  constructor(scope: Construct, id: string, { config, queues, secrets, ordersTable, environment }: WebhooksProps) {
    super(scope, id);
    const { orderEvents, webhookDeliveries, webhookSlowDeliveries } = queues.queue;

    this.orderOutboxRelay = new NodeFunction(this, 'OrderOutboxRelay', {
      config,
      name: 'orderOutboxRelay',
      environment,
    });
    this.orderOutboxRelay.live.addEventSource(
      new DynamoEventSource(ordersTable, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: ORDER_OUTBOX_BATCH_SIZE,
        reportBatchItemFailures: true,
        // Only outbox items are events; order items and cart-free updates never wake the relay.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(OUTBOX_KEY_PREFIX) } } },
          }),
        ],
        // A record that keeps failing for a day goes to the dead-letter queue rather than blocking its shard.
        retryAttempts: 1000,
        maxRecordAge: Duration.days(1),
        bisectBatchOnError: true,
        onFailure: new SqsDlq(queues.deadLetterQueue.orderEvents),
      }),
    );
    orderEvents.grantSendMessages(this.orderOutboxRelay);

    this.orderFanout = new NodeFunction(this, 'OrderFanout', {
      config,
      name: 'orderFanout',
      environment,
    });
    this.orderFanout.live.addEventSource(
      new SqsEventSource(orderEvents, {
        batchSize: QUEUES.orderEvents.consumerBatchSize,
        reportBatchItemFailures: true,
      }),
    );
    webhookDeliveries.grantSendMessages(this.orderFanout);
    const failedBatchesGoToTheQueuesDlq = {
      id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
      reason:
        "A message that keeps failing moves to its queue's dead-letter queue (redrive policy, alarm on depth > 0) with its body; an on-failure destination would only hold the batch's metadata",
    };
    Validations.of(this.orderFanout).acknowledge(failedBatchesGoToTheQueuesDlq);

    this.webhookDispatch = new NodeFunction(this, 'WebhookDispatch', {
      config,
      name: 'webhookDispatch',
      environment,
    });
    this.webhookDispatch.live.addEventSource(
      new SqsEventSource(webhookDeliveries, {
        batchSize: QUEUES.webhookDeliveries.consumerBatchSize,
        reportBatchItemFailures: true,
        maxConcurrency: QUEUES.webhookDeliveries.consumerConcurrency,
      }),
    );
    Validations.of(this.webhookDispatch).acknowledge(failedBatchesGoToTheQueuesDlq);
    // Retries are re-enqueued with a delay; attempts unanswered within the budget move to the slow path.
    webhookDeliveries.grantSendMessages(this.webhookDispatch);
    webhookSlowDeliveries.grantSendMessages(this.webhookDispatch);

    // The slow path (docs/webhooks.md, "Fast and slow paths"): the same dispatcher with the full deadline, its own concurrency.
    this.webhookSlowDispatch = new NodeFunction(this, 'WebhookSlowDispatch', {
      config,
      name: 'webhookSlowDispatch',
      environment,
    });
    this.webhookSlowDispatch.live.addEventSource(
      new SqsEventSource(webhookSlowDeliveries, {
        batchSize: QUEUES.webhookSlowDeliveries.consumerBatchSize,
        reportBatchItemFailures: true,
        maxConcurrency: QUEUES.webhookSlowDeliveries.consumerConcurrency,
      }),
    );
    Validations.of(this.webhookSlowDispatch).acknowledge(failedBatchesGoToTheQueuesDlq);
    // Its retries, hops and deferrals go back through the deliveries queue, where the fast path routes them.
    webhookDeliveries.grantSendMessages(this.webhookSlowDispatch);

    // Per-partner signing secrets are created by the operator CLI; the dispatchers only read them.
    secrets.grantWebhookSecretsRead(this.webhookDispatch);
    secrets.grantWebhookSecretsRead(this.webhookSlowDispatch);

    this.alertSender = new EmailIdentity(this, 'AlertSender', {
      identity: Identity.email(config.alertSenderEmail),
    });
    // SESv2 SendEmail authorizes as ses:SendEmail; raw sending is not needed.
    this.alertSender.grant(this.webhookDispatch, 'ses:SendEmail');
    this.alertSender.grant(this.webhookSlowDispatch, 'ses:SendEmail');
  }
}
