import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { DynamoDeliveryRepository } from '../adapters/dynamodb/delivery-repository';
import { DynamoWebhookEndpointRepository } from '../adapters/dynamodb/webhook-endpoint-repository';
import { SqsMessageQueue } from '../adapters/sqs-queue';
import type { DeliveryMessage } from '../domain/webhooks/delivery';
import { WebhookFanout } from '../domain/webhooks/webhook-fanout';
import { type BaseDependencies, createBase, tablesOf } from './base';
import { lambdaRoot } from './lambda-root';

export interface OrderFanoutDependencies extends BaseDependencies {
  readonly webhookFanout: WebhookFanout;
}

export function composeOrderFanout(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient },
): OrderFanoutDependencies {
  const table = tablesOf(base.config);
  return {
    ...base,
    webhookFanout: new WebhookFanout(
      new DynamoWebhookEndpointRepository(clients.db, table('partners')),
      new DynamoDeliveryRepository(clients.db, table('webhooks')),
      new SqsMessageQueue<DeliveryMessage>(clients.sqs, base.config.WEBHOOK_DELIVERIES_QUEUE_URL),
      base.clock,
      base.logger,
    ),
  };
}

export const orderFanoutFromEnvironment = lambdaRoot((config) =>
  composeOrderFanout(createBase(config), { db: createDocumentClient(), sqs: createSqsClient() }),
);
