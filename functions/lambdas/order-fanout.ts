import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type OrderFanoutDependencies, orderFanoutFromEnvironment } from '../composition/order-fanout-dependencies';
import { withCorrelation } from '../domain/correlation';
import { OrderEventMessage } from '../domain/events/order-event-message';
import { processSqsBatch, redelivered } from '../queue/sqs-batch';

/** order-events → one delivery per subscribed partner endpoint, first attempt queued. */
export const createOrderFanoutHandler =
  (getDependencies: () => Promise<OrderFanoutDependencies>) =>
  async (event: SQSEvent, context?: Pick<Context, 'awsRequestId' | 'functionName'>): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    try {
      return await processSqsBatch(event, deps.logger, 'order-fanout', async (record) => {
        const message = OrderEventMessage.parse(JSON.parse(record.body));
        const { requestId, partnerId, organizationId, orderId, eventId } = message;
        // Each event's lines carry the request that made the order change.
        return withCorrelation({ requestId, partnerId, organizationId, orderId, eventId }, () =>
          deps.webhookFanout.fanOut(message, { redelivered: redelivered(record) }),
        );
      });
    } finally {
      deps.metrics.flush();
    }
  };

export const handler = createOrderFanoutHandler(orderFanoutFromEnvironment);
