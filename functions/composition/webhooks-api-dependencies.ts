import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { DeliveryReplay } from '../webhooks/delivery-replay';
import { PartnerWebhooks } from '../webhooks/partner-webhooks';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createBase } from './base';
import { lambdaRoot } from './lambda-root';
import { deliveryQueue } from './message-queues';
import { type DynamoTables, deliveryRepository, webhookEndpointRepository } from './repositories';

export interface WebhooksApiDependencies extends ApiDependencies {
  readonly partnerWebhooks: PartnerWebhooks;
}

/**
 * The partner's deliveries and endpoint: reads keys and the endpoint (partners table),
 * reads deliveries and starts a retry's chain (webhooks table), queues the retry's first
 * attempt. Never the signing secrets: nothing here signs.
 */
export function composeWebhooksApi(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient },
): WebhooksApiDependencies {
  const tables: DynamoTables = { config: base.config, db: clients.db };
  const deliveries = deliveryRepository(tables);
  return {
    ...composeApiAccess(base, tables),
    partnerWebhooks: new PartnerWebhooks(
      deliveries,
      webhookEndpointRepository(tables),
      new DeliveryReplay(deliveries, deliveryQueue(base.config, clients.sqs), base.clock),
    ),
  };
}

export const webhooksApiFromEnvironment = lambdaRoot((config) =>
  composeWebhooksApi(createBase(config), { db: createDocumentClient(), sqs: createSqsClient() }),
);
