import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type InvoicingDependencies, invoicingFromEnvironment } from '../composition/invoicing-dependencies';
import { withCorrelation } from '../domain/correlation';
import { OrderEventMessage } from '../domain/events/order-event-message';
import { METRIC } from '../domain/metrics';
import type { OrderId } from '../domain/orders/order';
import { processSqsBatch } from '../queue/sqs-batch';

/**
 * invoicing queue → the order's invoice (order.shipped) or a credit note (order.refunded).
 * A failure leaves the message for redelivery (the queue's retries, then its dead-letter
 * queue and alarm); every step is idempotent per order, so a redelivery finishes the job.
 */
export const createInvoicingHandler =
  (getDependencies: () => Promise<InvoicingDependencies>) =>
  async (event: SQSEvent, context?: Pick<Context, 'awsRequestId' | 'functionName'>): Promise<SQSBatchResponse> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    try {
      return await processSqsBatch(event, deps.logger, 'invoicing', async (record) => {
        const message = OrderEventMessage.parse(JSON.parse(record.body));
        const { requestId, partnerId, organizationId, eventId } = message;
        const orderId = (message.orderId ?? String(message.data.order_id)) as OrderId;
        return withCorrelation({ requestId, partnerId, organizationId, orderId, eventId }, async () => {
          try {
            if (message.event === 'order.shipped') {
              const invoice = await deps.invoicing.issue(orderId);
              deps.logger.info({ msg: 'order invoiced', orderId, invoiceId: invoice.id, number: invoice.number });
            } else if (message.event === 'order.refunded') {
              const invoice = await deps.invoicing.credit(orderId, Number(message.data.sequence));
              deps.logger.info({ msg: 'refund credited', orderId, amountCreditedCents: invoice.amountCreditedCents });
            }
          } catch (error) {
            deps.metrics.count(METRIC.invoicingFailures, { event: message.event });
            throw error;
          }
        });
      });
    } finally {
      deps.metrics.flush();
    }
  };

export const handler = createInvoicingHandler(invoicingFromEnvironment);
