import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { SqsMessageQueue } from '../adapters/sqs-queue';
import { OrderOutboxRelay } from '../domain/events/order-outbox';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import { traced } from '../adapters/observability/tracing';

export interface OrderOutboxRelayDependencies extends BaseDependencies {
  readonly orderOutboxRelay: OrderOutboxRelay;
}

export function composeOrderOutboxRelay(
  base: BaseDependencies,
  clients: { sqs: SQSClient },
): OrderOutboxRelayDependencies {
  return {
    ...base,
    orderOutboxRelay: new OrderOutboxRelay(
      new SqsMessageQueue<OrderEventMessage>(clients.sqs, base.config.ORDER_EVENTS_QUEUE_URL),
      new SqsMessageQueue<OrderEventMessage>(clients.sqs, base.config.INVOICING_QUEUE_URL),
    ),
  };
}

export const orderOutboxRelayFromEnvironment = lambdaRoot((config) =>
  composeOrderOutboxRelay(createLambdaBase(config), { sqs: createSqsClient(undefined, traced) }),
);
