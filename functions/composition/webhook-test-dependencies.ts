import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { WebhookTestEvents } from '../webhooks/webhook-test-events';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import { orderEventQueue } from './message-queues';
import { type DynamoTables, organizationRepository, webhookEndpointRepository } from './repositories';
import { traced } from '../adapters/observability/tracing';

export interface WebhookTestDependencies extends ApiDependencies {
  readonly webhookTestEvents: WebhookTestEvents;
}

/** The sandbox's `POST /v1/webhooks/test`: reads the partner's endpoint and organizations, writes only to the order-events queue. */
export function composeWebhookTest(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient },
): WebhookTestDependencies {
  const tables: DynamoTables = { config: base.config, db: clients.db };
  return {
    ...composeApiAccess(base, tables),
    webhookTestEvents: new WebhookTestEvents(
      webhookEndpointRepository(tables),
      organizationRepository(tables),
      orderEventQueue(base.config, clients.sqs),
      base.clock,
    ),
  };
}

export const webhookTestFromEnvironment = lambdaRoot((config) =>
  composeWebhookTest(createLambdaBase(config), {
    db: createDocumentClient(undefined, traced),
    sqs: createSqsClient(undefined, traced),
  }),
);
