import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { METRIC, type Metrics } from '../metrics';
import type { InvoicingService } from './invoicing-service';
import type { UninvoicedShipments } from './uninvoiced-shipments';

/** Orders one run invoices at most: each takes up to four Stripe calls, and the next run takes the rest. */
const SWEEP_BATCH = 50;

export interface InvoiceSweepResult {
  /** Shipped orders found without an invoice (each counted in METRIC.uninvoicedShipmentsSwept). */
  readonly found: number;
  /** Of those, invoiced by this run. */
  readonly invoiced: number;
  /** Of those, still failing (left for the next run). */
  readonly failed: number;
}

/**
 * Finds orders shipped more than `graceSeconds` ago whose invoice is not recorded
 * and issues each through the invoicing queue's own path (`InvoicingService.issue`,
 * idempotent per order): an order racing its queue message still gets one invoice.
 */
export class InvoiceSweep {
  constructor(
    private readonly options: {
      readonly shipments: UninvoicedShipments;
      readonly invoicing: Pick<InvoicingService, 'issue'>;
      readonly clock: Clock;
      readonly metrics: Metrics;
      readonly logger: Logger;
      /**
       * A shipment younger than this is left to the invoicing queue, which normally invoices
       * it within seconds; older, its message was lost (a local stack killed mid-way) or is
       * stuck (retrying, or parked in the dead-letter queue), and the sweep issues the invoice.
       */
      readonly graceSeconds: number;
    },
  ) {}

  async run(): Promise<InvoiceSweepResult> {
    const { shipments, invoicing, clock, metrics, logger, graceSeconds } = this.options;
    const cutoff = new Date(clock.now().getTime() - graceSeconds * 1000).toISOString();
    const due = await shipments.shippedBefore(cutoff, SWEEP_BATCH);
    let invoiced = 0;
    for (const { orderId, shippedAt } of due) {
      metrics.count(METRIC.uninvoicedShipmentsSwept);
      try {
        const invoice = await invoicing.issue(orderId);
        // The invoice's record removed the marker, unless it was recorded before the marker existed.
        await shipments.settle(orderId);
        invoiced += 1;
        logger.info({ msg: 'uninvoiced shipment invoiced by the sweep', orderId, shippedAt, invoiceId: invoice.id });
      } catch (error) {
        metrics.count(METRIC.invoicingFailures, { event: 'sweep' });
        logger.error({
          msg: 'uninvoiced shipment still not invoiced; the next sweep tries again',
          orderId,
          shippedAt,
          error: (error as Error)?.name,
          detail: (error as Error)?.message,
        });
      }
    }
    return { found: due.length, invoiced, failed: due.length - invoiced };
  }
}
