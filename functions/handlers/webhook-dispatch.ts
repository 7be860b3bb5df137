import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type WebhookDispatchDependencies, webhookDispatchFromEnvironment } from '../composition/webhook-dispatch';
import { DeliveryMessage } from '../domain/webhooks/delivery';
import { processSqsBatch } from '../queue/sqs-batch';

/** webhook-deliveries → one attempt (or a hop towards its due time) per message. */
export const createWebhookDispatchHandler =
  (getDependencies: () => Promise<WebhookDispatchDependencies>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    return processSqsBatch(event, deps.logger, 'webhook-dispatch', (record) =>
      deps.webhookDispatcher.dispatch(DeliveryMessage.parse(JSON.parse(record.body))),
    );
  };

export const handler = createWebhookDispatchHandler(webhookDispatchFromEnvironment);
