import type { SQSClient } from '@aws-sdk/client-sqs';
import { SqsMessageQueue } from '../adapters/sqs-queue';
import type { RuntimeConfig } from '../config';
import type { DeliveryMessage } from '../webhooks/delivery';
import type { OrderEventMessage } from '../domain/events/order-events';

/** The queue of webhook attempts: fed by the fan-out, the dispatcher and the operator's replays. */
export const deliveryQueue = (config: Pick<RuntimeConfig, 'WEBHOOK_DELIVERIES_QUEUE_URL'>, sqs: SQSClient) =>
  new SqsMessageQueue<DeliveryMessage>(sqs, config.WEBHOOK_DELIVERIES_QUEUE_URL);

/** The slow path's queue of webhook attempts: fed by the fast path's dispatcher only. */
export const slowDeliveryQueue = (config: Pick<RuntimeConfig, 'WEBHOOK_SLOW_DELIVERIES_QUEUE_URL'>, sqs: SQSClient) =>
  new SqsMessageQueue<DeliveryMessage>(sqs, config.WEBHOOK_SLOW_DELIVERIES_QUEUE_URL);

/** The queue of published order events, read by the fan-out. */
export const orderEventQueue = (config: Pick<RuntimeConfig, 'ORDER_EVENTS_QUEUE_URL'>, sqs: SQSClient) =>
  new SqsMessageQueue<OrderEventMessage>(sqs, config.ORDER_EVENTS_QUEUE_URL);
