import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  type WebhookDispatchDependencies,
  webhookDispatchFromEnvironment,
} from '../composition/webhook-dispatch-dependencies';
import { withCorrelation } from '../domain/correlation';
import { METRIC } from '../domain/metrics';
import { DeliveryMessage } from '../webhooks/delivery';
import { type ParsedRecord, parseRecordBody, processSqsBatch } from '../queue/sqs-batch';

/** webhook-deliveries → one attempt (or a hop towards its due time) per message; the batch shares its reads. */
export const createWebhookDispatchHandler =
  (getDependencies: () => Promise<WebhookDispatchDependencies>) =>
  async (event: SQSEvent, context?: Pick<Context, 'awsRequestId' | 'functionName'>): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    const sentAt = Math.min(...event.Records.map((record) => Number(record.attributes.SentTimestamp)));
    if (Number.isFinite(sentAt))
      deps.metrics.observe(METRIC.webhookQueueAge, Math.max(0, deps.clock.now().getTime() - sentAt), {
        path: deps.dispatchPath,
      });
    const messages = event.Records.map((record) => parseRecordBody(record, DeliveryMessage));
    const batch = deps.webhookDispatcher.batch(messages.flatMap((body) => (body.ok ? [body.message] : [])));
    try {
      return await processSqsBatch(event, deps.logger, 'webhook-dispatch', async (_record, index) => {
        const body = messages[index] as ParsedRecord<DeliveryMessage>;
        if (!body.ok) throw body.error;
        // Each message's lines carry its delivery; the dispatcher adds the request and order once it has read them.
        const { deliveryId, partnerId } = body.message;
        return withCorrelation({ deliveryId, partnerId }, () => batch.dispatch(body.message));
      });
    } finally {
      deps.metrics.flush();
    }
  };

export const handler = createWebhookDispatchHandler(webhookDispatchFromEnvironment);
