import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type WebhookDispatchDependencies, webhookDispatchFromEnvironment } from '../../composition/webhook-dispatch';
import { DeliveryMessage } from '../delivery';
import type { ReceivedDeliveryMessage } from '../webhook-dispatcher';
import { type ParsedRecord, parseRecordBody, processSqsBatch, redelivered } from '../../queue/sqs-batch';

/** webhook-deliveries → one attempt (or a hop towards its due time) per message; the batch shares its reads. */
export const createWebhookDispatchHandler =
  (getDependencies: () => Promise<WebhookDispatchDependencies>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    const received = event.Records.map((record) => {
      const body = parseRecordBody(record, DeliveryMessage);
      return body.ok ? { ok: true as const, message: { message: body.message, redelivered: redelivered(record) } } : body;
    });
    const batch = deps.webhookDispatcher.batch(received.flatMap((body) => (body.ok ? [body.message] : [])));
    return processSqsBatch(event, deps.logger, 'webhook-dispatch', async (_record, index) => {
      const body = received[index] as ParsedRecord<ReceivedDeliveryMessage>;
      if (!body.ok) throw body.error;
      return batch.dispatch(body.message);
    });
  };

export const handler = createWebhookDispatchHandler(webhookDispatchFromEnvironment);
