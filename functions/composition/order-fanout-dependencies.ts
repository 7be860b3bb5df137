import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { WebhookFanout } from '../webhooks/webhook-fanout';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import { deliveryQueue } from './message-queues';
import { type DynamoTables, deliveryRepository, invoiceRepository, webhookEndpointRepository } from './repositories';
import { traced } from '../adapters/observability/tracing';

export interface OrderFanoutDependencies extends BaseDependencies {
  readonly webhookFanout: WebhookFanout;
}

export function composeOrderFanout(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient },
): OrderFanoutDependencies {
  const tables: DynamoTables = { config: base.config, db: clients.db };
  return {
    ...base,
    webhookFanout: new WebhookFanout(
      webhookEndpointRepository(tables),
      deliveryRepository(tables),
      invoiceRepository(tables, base.clock),
      deliveryQueue(base.config, clients.sqs),
      base.clock,
      base.logger,
    ),
  };
}

export const orderFanoutFromEnvironment = lambdaRoot((config) =>
  composeOrderFanout(createLambdaBase(config), {
    db: createDocumentClient(undefined, traced),
    sqs: createSqsClient(undefined, traced),
  }),
);
