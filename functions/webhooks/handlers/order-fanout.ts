import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type OrderFanoutDependencies, orderFanoutFromEnvironment } from '../../composition/order-fanout';
import { OrderEventMessage } from '../order-event-message';
import { processSqsBatch, redelivered } from '../../queue/sqs-batch';

/** order-events → one delivery per subscribed partner endpoint, first attempt queued. */
export const createOrderFanoutHandler =
  (getDependencies: () => Promise<OrderFanoutDependencies>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    return processSqsBatch(event, deps.logger, 'order-fanout', (record) =>
      deps.webhookFanout.fanOut(OrderEventMessage.parse(JSON.parse(record.body)), {
        redelivered: redelivered(record),
      }),
    );
  };

export const handler = createOrderFanoutHandler(orderFanoutFromEnvironment);
