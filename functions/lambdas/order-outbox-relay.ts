import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import {
  type OrderOutboxRelayDependencies,
  orderOutboxRelayFromEnvironment,
} from '../composition/order-outbox-relay-dependencies';
import { processStreamBatch } from '../queue/stream-batch';
import { OUTBOX_KEY_PREFIX } from '../resources/resource-definitions';

/** orders table stream → the order-events queue, for the outbox items each order change commits. */
export const createOrderOutboxRelayHandler =
  (getDependencies: () => Promise<OrderOutboxRelayDependencies>) =>
  async (
    event: DynamoDBStreamEvent,
    context?: Pick<Context, 'awsRequestId' | 'functionName'>,
  ): Promise<DynamoDBBatchResponse> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    return processStreamBatch(event, deps.logger, 'order-outbox-relay', async (record) => {
      const image = record.dynamodb?.NewImage;
      // The event source's filter passes only inserted outbox items; the check keeps the local poller (which has no filter) equal.
      if (record.eventName !== 'INSERT' || !image?.pk?.S?.startsWith(OUTBOX_KEY_PREFIX)) return;
      const message = await deps.orderOutboxRelay.relay(image.message?.S ?? '');
      const { eventId, partnerId, requestId, orderId, organizationId } = message;
      deps.logger.info({
        msg: 'order event relayed',
        event: message.event,
        eventId,
        partnerId,
        requestId,
        orderId,
        organizationId,
      });
    });
  };

export const handler = createOrderOutboxRelayHandler(orderOutboxRelayFromEnvironment);
