import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { EnvironmentConfig } from '../config';
import { QUEUES, webhookSecretName } from '../resources';
import { NodeFunction } from './node-function';
import type { Queues } from './queues';

export interface WebhooksProps {
  readonly config: EnvironmentConfig;
  readonly queues: Queues;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Order events fan out into frozen delivery records; the dispatcher signs and sends them,
 * retrying through the deliveries queue, and alerts the partner by e-mail after the last retry.
 */
export class Webhooks extends Construct {
  readonly orderFanout: NodeFunction;
  readonly webhookDispatch: NodeFunction;
  /** Placeholder value at creation; operators put the real (sandbox: test-mode) key. */
  readonly stripeSecret: Secret;
  readonly alertSender: EmailIdentity;

  constructor(scope: Construct, id: string, { config, queues, environment }: WebhooksProps) {
    super(scope, id);
    const { orderEvents, webhookDeliveries } = queues.queue;

    this.orderFanout = new NodeFunction(this, 'OrderFanout', {
      config,
      name: 'orderFanout',
      timeout: Duration.seconds(30),
      environment,
    });
    this.orderFanout.addEventSource(
      new SqsEventSource(orderEvents, { batchSize: QUEUES.orderEvents.consumerBatchSize, reportBatchItemFailures: true }),
    );
    webhookDeliveries.grantSendMessages(this.orderFanout);

    // A partner may take 30 s to answer; the queue's 180 s visibility leaves room beyond this timeout.
    this.webhookDispatch = new NodeFunction(this, 'WebhookDispatch', {
      config,
      name: 'webhookDispatch',
      timeout: Duration.seconds(120),
      environment,
    });
    this.webhookDispatch.addEventSource(
      new SqsEventSource(webhookDeliveries, {
        batchSize: QUEUES.webhookDeliveries.consumerBatchSize,
        reportBatchItemFailures: true,
        maxConcurrency: 10,
      }),
    );
    // Retries are re-enqueued with a delay.
    webhookDeliveries.grantSendMessages(this.webhookDispatch);

    // Per-partner signing secrets are created by the operator CLI; the dispatcher only reads them.
    this.webhookDispatch.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        resources: [
          Stack.of(this).formatArn({
            service: 'secretsmanager',
            resource: 'secret',
            resourceName: webhookSecretName(config.resourcePrefix, '*'),
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );

    this.alertSender = new EmailIdentity(this, 'AlertSender', {
      identity: Identity.email(config.alertSenderEmail),
    });
    // SESv2 SendEmail authorizes as ses:SendEmail; raw sending is not needed.
    this.alertSender.grant(this.webhookDispatch, 'ses:SendEmail');

    this.stripeSecret = new Secret(this, 'StripeSecretKey', {
      secretName: config.stripeSecretName,
      description: `Stripe secret key for ${config.stage}; the generated value is a placeholder operators replace`,
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
