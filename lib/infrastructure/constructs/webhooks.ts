import { Validations } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../../../functions/resources/stages';
import { QUEUES } from '../../../functions/resources/resource-definitions';
import { NodeFunction } from './node-function';
import type { Queues } from './queues';
import type { Secrets } from './secrets';

export interface WebhooksProps {
  readonly config: EnvironmentConfig;
  readonly queues: Queues;
  readonly secrets: Secrets;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Order events fan out into frozen delivery records; the dispatcher signs and sends them,
 * retrying through the deliveries queue, and alerts the partner by e-mail after the last retry.
 */
export class Webhooks extends Construct {
  readonly orderFanout: NodeFunction;
  readonly webhookDispatch: NodeFunction;
  readonly alertSender: EmailIdentity;

  constructor(scope: Construct, id: string, { config, queues, secrets, environment }: WebhooksProps) {
    super(scope, id);
    const { orderEvents, webhookDeliveries } = queues.queue;

    this.orderFanout = new NodeFunction(this, 'OrderFanout', {
      config,
      name: 'orderFanout',
      environment,
    });
    this.orderFanout.addEventSource(
      new SqsEventSource(orderEvents, { batchSize: QUEUES.orderEvents.consumerBatchSize, reportBatchItemFailures: true }),
    );
    webhookDeliveries.grantSendMessages(this.orderFanout);
    const failedBatchesGoToTheQueuesDlq = {
      id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
      reason: "A message that keeps failing moves to its queue's dead-letter queue (redrive policy, alarm on depth > 0) with its body; an on-failure destination would only hold the batch's metadata",
    };
    Validations.of(this.orderFanout).acknowledge(failedBatchesGoToTheQueuesDlq);

    this.webhookDispatch = new NodeFunction(this, 'WebhookDispatch', {
      config,
      name: 'webhookDispatch',
      environment,
    });
    this.webhookDispatch.addEventSource(
      new SqsEventSource(webhookDeliveries, {
        batchSize: QUEUES.webhookDeliveries.consumerBatchSize,
        reportBatchItemFailures: true,
        maxConcurrency: 10,
      }),
    );
    Validations.of(this.webhookDispatch).acknowledge(failedBatchesGoToTheQueuesDlq);
    // Retries are re-enqueued with a delay.
    webhookDeliveries.grantSendMessages(this.webhookDispatch);

    // Per-partner signing secrets are created by the operator CLI; the dispatcher only reads them.
    secrets.grantWebhookSecretsRead(this.webhookDispatch);

    this.alertSender = new EmailIdentity(this, 'AlertSender', {
      identity: Identity.email(config.alertSenderEmail),
    });
    // SESv2 SendEmail authorizes as ses:SendEmail; raw sending is not needed.
    this.alertSender.grant(this.webhookDispatch, 'ses:SendEmail');
  }
}
