import type { Context, ScheduledEvent } from 'aws-lambda';
import { type InvoiceSweepDependencies, invoiceSweepFromEnvironment } from '../composition/invoice-sweep-dependencies';
import type { InvoiceSweepResult } from '../domain/billing/invoice-sweep';

/**
 * The scheduled invoice sweep (EventBridge every INVOICE_SWEEP_MINUTES; `npm start`: at
 * start-up and every minute): invoices the orders shipped over a minute ago that have no
 * invoice. A failed run needs no retry of its own: the next run finds the same orders.
 */
export const createInvoiceSweepHandler =
  (getDependencies: () => Promise<InvoiceSweepDependencies>) =>
  async (
    _event: Pick<ScheduledEvent, 'time'>,
    context?: Pick<Context, 'awsRequestId' | 'functionName'>,
  ): Promise<InvoiceSweepResult> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    try {
      const result = await deps.invoiceSweep.run();
      if (result.found > 0) deps.logger.info({ msg: 'invoice sweep', ...result });
      return result;
    } finally {
      deps.metrics.flush();
    }
  };

export const handler = createInvoiceSweepHandler(invoiceSweepFromEnvironment);
