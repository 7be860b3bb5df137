import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { createSesClient } from '../adapters/aws/ses-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { DynamoDeliveryRepository } from '../adapters/dynamodb/delivery-repository';
import { DynamoPartnerRepository } from '../adapters/dynamodb/partner-repository';
import { DynamoWebhookEndpointRepository } from '../adapters/dynamodb/webhook-endpoint-repository';
import { SecretsManagerSigningSecretStore } from '../adapters/secret-store';
import { SesAlertMailer } from '../adapters/ses-mailer';
import { SqsMessageQueue } from '../adapters/sqs-queue';
import { HttpWebhookTransport } from '../adapters/webhook-http/http-webhook-transport';
import type { DeliveryMessage } from '../domain/webhooks/delivery';
import type { DeliveryRepository } from '../domain/webhooks/delivery-repository';
import { RetrySchedule } from '../domain/webhooks/retry-schedule';
import type { SigningSecretStore } from '../domain/webhooks/signing-secret-store';
import type { WebhookEndpointRepository } from '../domain/webhooks/webhook-endpoint';
import { WebhookDispatcher } from '../domain/webhooks/webhook-dispatcher';
import type { MessageQueue } from '../domain/webhooks/message-queue';
import { type BaseDependencies, createBase, tablesOf } from './base';
import { lambdaRoot } from './lambda-root';

export interface WebhookDispatchDependencies extends BaseDependencies {
  readonly webhookDispatcher: WebhookDispatcher;
  /** Shared with the operator's webhook admin, so a rotated secret is not served from a stale cache. */
  readonly signingSecrets: SigningSecretStore;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly deliveries: DeliveryRepository;
  readonly deliveryQueue: MessageQueue<DeliveryMessage>;
}

export function composeWebhookDispatch(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient; ses: SESv2Client; secrets: SecretsManagerClient },
): WebhookDispatchDependencies {
  const { config, clock, logger } = base;
  const table = tablesOf(config);
  const deliveries = new DynamoDeliveryRepository(clients.db, table('webhooks'));
  const webhookEndpoints = new DynamoWebhookEndpointRepository(clients.db, table('partners'));
  const signingSecrets = new SecretsManagerSigningSecretStore(clients.secrets, config.RESOURCE_PREFIX, clock);
  const deliveryQueue = new SqsMessageQueue<DeliveryMessage>(clients.sqs, config.WEBHOOK_DELIVERIES_QUEUE_URL);
  return {
    ...base,
    deliveries,
    webhookEndpoints,
    signingSecrets,
    deliveryQueue,
    webhookDispatcher: new WebhookDispatcher({
      deliveries,
      endpoints: webhookEndpoints,
      partners: new DynamoPartnerRepository(clients.db, table('partners')),
      secrets: signingSecrets,
      transport: new HttpWebhookTransport({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, requireHttpsPublic: config.WEBHOOK_REQUIRE_HTTPS_PUBLIC }),
      mailer: new SesAlertMailer(clients.ses, config.ALERT_SENDER_EMAIL),
      queue: deliveryQueue,
      schedule: new RetrySchedule(config.WEBHOOK_RETRY_DELAYS_S),
      clock,
      logger,
    }),
  };
}

export const webhookDispatchFromEnvironment = lambdaRoot((config) =>
  composeWebhookDispatch(createBase(config), {
    db: createDocumentClient(),
    sqs: createSqsClient(),
    ses: createSesClient(),
    secrets: createSecretsClient(),
  }),
);
