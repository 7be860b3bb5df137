import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type WebhookDispatchDependencies, webhookDispatchFromEnvironment } from '../../composition/webhook-dispatch';
import { DeliveryMessage } from '../delivery';
import { type ParsedRecord, parseRecordBody, processSqsBatch } from '../../queue/sqs-batch';

/** webhook-deliveries → one attempt (or a hop towards its due time) per message; the batch shares its reads. */
export const createWebhookDispatchHandler =
  (getDependencies: () => Promise<WebhookDispatchDependencies>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    const messages = event.Records.map((record) => parseRecordBody(record, DeliveryMessage));
    const batch = deps.webhookDispatcher.batch(messages.flatMap((body) => (body.ok ? [body.message] : [])));
    return processSqsBatch(event, deps.logger, 'webhook-dispatch', async (_record, index) => {
      const body = messages[index] as ParsedRecord<DeliveryMessage>;
      if (!body.ok) throw body.error;
      return batch.dispatch(body.message);
    });
  };

export const handler = createWebhookDispatchHandler(webhookDispatchFromEnvironment);
