import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type OrderOutboxRelayDependencies, orderOutboxRelayFromEnvironment } from '../../composition/order-outbox-relay';
import { processStreamBatch } from '../../queue/stream-batch';
import { OUTBOX_KEY_PREFIX } from '../../resources/resource-definitions';

/** orders table stream → the order-events queue, for the outbox items each order change commits. */
export const createOrderOutboxRelayHandler =
  (getDependencies: () => Promise<OrderOutboxRelayDependencies>) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const deps = await getDependencies();
    return processStreamBatch(event, deps.logger, 'order-outbox-relay', async (record) => {
      const image = record.dynamodb?.NewImage;
      // The event source's filter passes only inserted outbox items; the check keeps the local poller (which has no filter) equal.
      if (record.eventName !== 'INSERT' || !image?.pk?.S?.startsWith(OUTBOX_KEY_PREFIX)) return;
      const message = await deps.orderOutboxRelay.relay(image.message?.S ?? '');
      deps.logger.info({ msg: 'order event relayed', eventId: message.eventId, event: message.event, partnerId: message.partnerId });
    });
  };

export const handler = createOrderOutboxRelayHandler(orderOutboxRelayFromEnvironment);
