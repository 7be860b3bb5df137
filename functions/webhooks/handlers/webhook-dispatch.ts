import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type WebhookDispatchDependencies, webhookDispatchFromEnvironment } from '../../composition/webhook-dispatch';
import { withCorrelation } from '../../domain/correlation';
import { DeliveryMessage } from '../delivery';
import type { ReceivedDeliveryMessage } from '../webhook-dispatcher';
import { type ParsedRecord, parseRecordBody, processSqsBatch, redelivered } from '../../queue/sqs-batch';

/** webhook-deliveries → one attempt (or a hop towards its due time) per message; the batch shares its reads. */
export const createWebhookDispatchHandler =
  (getDependencies: () => Promise<WebhookDispatchDependencies>) =>
  async (event: SQSEvent, context?: Pick<Context, 'awsRequestId' | 'functionName'>): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    const received = event.Records.map((record) => {
      const body = parseRecordBody(record, DeliveryMessage);
      return body.ok ? { ok: true as const, message: { message: body.message, redelivered: redelivered(record) } } : body;
    });
    const batch = deps.webhookDispatcher.batch(received.flatMap((body) => (body.ok ? [body.message] : [])));
    try {
      return await processSqsBatch(event, deps.logger, 'webhook-dispatch', async (_record, index) => {
        const body = received[index] as ParsedRecord<ReceivedDeliveryMessage>;
        if (!body.ok) throw body.error;
        // Each message's lines carry its delivery; the dispatcher adds the request and order once it knows them.
        const { deliveryId, partnerId, eventId, requestId, orderId, organizationId } = body.message.message;
        return withCorrelation({ deliveryId, partnerId, eventId, requestId, orderId, organizationId }, () => batch.dispatch(body.message));
      });
    } finally {
      deps.metrics.flush();
    }
  };

export const handler = createWebhookDispatchHandler(webhookDispatchFromEnvironment);
