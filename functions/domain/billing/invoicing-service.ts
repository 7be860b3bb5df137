import type { Clock } from '../clock';
import { ConcurrentModification, InvoiceNotIssuedYet, InvoiceTotalMismatch, OrderNotFound } from '../errors';
import { METRIC, type Metrics } from '../metrics';
import type { Order, OrderId } from '../orders/order';
import type { OrderRepository } from '../orders/order-repository';
import { paymentTermsOf } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { MessageQueue } from '../events/message-queue';
import type { OrderEventMessage } from '../events/order-event-message';
import { creditableCents, type InvoiceRecord, invoiceIdFor } from './invoice';
import { invoiceCreditedEvent, invoiceIssuedEvent } from '../events/invoice-events';
import type { InvoiceRepository } from './invoice-repository';
import type { InvoiceLine, InvoicingProvider, ProviderInvoice } from './invoicing-provider';
import { daysUntilDue } from './payment-terms';
import type { SalesTaxProvider } from '../tax/sales-tax-provider';

export interface InvoicingServiceOptions {
  readonly orders: Pick<OrderRepository, 'get'>;
  readonly organizations: Pick<OrganizationRepository, 'getOrganization'>;
  readonly invoices: InvoiceRepository;
  readonly provider: InvoicingProvider;
  /** Stripe Tax: the order's calculation is recorded as a sale when its invoice is issued. */
  readonly salesTax: Pick<SalesTaxProvider, 'recordTransaction'>;
  readonly clock: Clock;
  readonly metrics: Metrics;
  /**
   * The order-events queue: `invoice.issued` and `invoice.credited` go to the partner's
   * endpoints subscribed to them. Sent after the record is written, and again by every
   * retry that finds it written (the event id is derived from the invoice, so the fan-out
   * makes one delivery of them), so a crash between the two never loses the event.
   */
  readonly events: MessageQueue<OrderEventMessage>;
  /** `production` or `sandbox`: recorded on the invoice for reconciliation. */
  readonly stage: string;
}

/** The invoice was created before the order's shipment could be seen by the consumer: look back this far for it. */
const LOOKBACK_SECONDS = 24 * 3600;
/** Lost races on one invoice record (concurrent credit notes and events) before the message is retried. */
const MAX_ATTEMPTS = 5;

/**
 * Issues the invoice of a shipped order and the credit notes of its refunds, off the
 * request path (the invoicing queue's consumer). Every step is idempotent, keyed by the
 * order, so a retry after a failure at any step, or two deliveries at once, leave one
 * invoice.
 */
export class InvoicingService {
  constructor(private readonly options: InvoicingServiceOptions) {}

  /**
   * The order's invoice, issued if it was not yet:
   * 1. an invoice already recorded for the order is the answer;
   * 2. otherwise the provider's invoice for the order (found by its metadata, or created
   *    as a draft under the order's idempotency key),
   * 3. given the order's lines if it has none (its tax is the order's, from the Stripe Tax calculation the buyer saw),
   * 4. the order's calculation recorded as a Stripe Tax transaction (reference: the order id), so the supplier's
   *    Stripe Tax reports and filings count the sale, and the transaction noted beside the order (`recordSale`),
   * 5. finalized (number, hosted page, PDF; the provider e-mails it),
   * 6. recorded beside the order by a conditional write: the first record wins.
   */
  async issue(orderId: OrderId): Promise<InvoiceRecord> {
    const { invoices, provider } = this.options;
    const recorded = await invoices.getByOrder(orderId);
    if (recorded) return this.announced(recorded, invoiceIssuedEvent(recorded));

    const order = await this.options.orders.get(orderId);
    if (!order) throw new OrderNotFound(orderId);
    const aggregate = await this.options.organizations.getOrganization(order.partnerId, order.internalOrgId);
    if (!aggregate) throw new OrderNotFound(orderId);
    const { organization } = aggregate;
    const customerId = organization.paymentCustomerId;

    let invoice =
      (await provider.findOrderInvoice(customerId, orderId, this.lookbackFrom(order))) ??
      (await provider.createDraft({
        idempotencyKey: `order-${orderId}-invoice`,
        customerId,
        owner: {
          orderId,
          partnerId: order.partnerId,
          organizationId: order.organizationId,
          internalOrgId: order.internalOrgId,
          environment: this.options.stage,
        },
        daysUntilDue: daysUntilDue(paymentTermsOf(organization)),
        ...(order.poNumber ? { poNumber: order.poNumber } : {}),
      }));
    if (invoice.status === 'draft') {
      if (invoice.lineCount === 0) {
        invoice = await provider.addLines(invoice.id, invoiceLines(order), `order-${orderId}-invoice-lines`);
      }
      if (invoice.totalCents !== order.totalCents) {
        throw new InvoiceTotalMismatch(orderId, invoice.totalCents, order.totalCents);
      }
      // Before finalizing, so never for an invoice that was not sent; once, whatever the delay before a retry.
      if (order.salesTax) await this.recordSale(orderId, order.salesTax.calculationId);
      invoice = await provider.finalize(invoice.id, `order-${orderId}-invoice-finalize`);
    }
    const { invoice: stored, created } = await invoices.record(this.newRecord(order, invoice));
    if (created) this.options.metrics.count(METRIC.invoicesIssued);
    return this.announced(stored, invoiceIssuedEvent(stored));
  }

  /**
   * The credit note of one refund of an invoiced order (the refund change's `sequence`):
   * at most one per refund, and never more in all than the invoice's total.
   */
  async credit(orderId: OrderId, refundSequence: number): Promise<InvoiceRecord> {
    const order = await this.options.orders.get(orderId);
    if (!order) throw new OrderNotFound(orderId);
    const refund = order.statusHistory.find((change) => change.sequence === refundSequence);
    if (refund?.status !== 'refunded') throw new OrderNotFound(orderId);

    for (let attempt = 1; ; attempt += 1) {
      const invoice = await this.options.invoices.getByOrder(orderId);
      if (!invoice) throw new InvoiceNotIssuedYet(orderId);
      if (invoice.creditNotes.some((note) => note.refundSequence === refundSequence))
        return this.announced(invoice, invoiceCreditedEvent(invoice, refundSequence));
      const amountCents = Math.min(refund.amountCents, creditableCents(invoice));
      if (amountCents === 0) return invoice;
      const note = await this.options.provider.createCreditNote({
        idempotencyKey: `order-${orderId}-refund-${refundSequence}-credit`,
        invoiceId: invoice.stripeInvoiceId,
        amountCents,
        metadata: { orderId, refundSequence: String(refundSequence) },
        ...(refund.reason ? { memo: refund.reason } : {}),
      });
      const credited: InvoiceRecord = {
        ...invoice,
        creditNotes: [
          ...invoice.creditNotes,
          {
            id: note.id,
            refundSequence,
            amountCents,
            createdAt: note.createdAt,
            ...(note.number ? { number: note.number } : {}),
            ...(note.pdf ? { pdf: note.pdf } : {}),
            ...(refund.reason ? { reason: refund.reason } : {}),
          },
        ],
        amountCreditedCents: invoice.amountCreditedCents + amountCents,
        amountDueCents: Math.max(0, invoice.amountDueCents - amountCents),
        // The credit note is a change Stripe made at its `created`: an event older than it changes nothing.
        lastEventCreated: Math.max(invoice.lastEventCreated ?? 0, Math.floor(Date.parse(note.createdAt) / 1000)),
        updatedAt: this.options.clock.now().toISOString(),
        version: invoice.version + 1,
      };
      try {
        await this.options.invoices.update(credited);
      } catch (error) {
        // A Stripe event or another refund's note changed the record: read it again (the
        // credit note's idempotency key returns the same note).
        if (!(error instanceof ConcurrentModification) || attempt >= MAX_ATTEMPTS) throw error;
        continue;
      }
      this.options.metrics.count(METRIC.invoicesCredited);
      return this.announced(credited, invoiceCreditedEvent(credited, refundSequence));
    }
  }

  /**
   * The order's sale recorded as a Stripe Tax transaction, once: a retry that finds it noted skips it, and one whose
   * note was lost (a crash after Stripe's answer) is answered by Stripe's idempotency key within 24 hours, after that
   * by Stripe's refusal of a second transaction of the order's `reference`, which is as good as done.
   */
  private async recordSale(orderId: OrderId, calculationId: string): Promise<void> {
    const { invoices, salesTax } = this.options;
    if (await invoices.taxTransactionOf(orderId)) return;
    const { transactionId } = await salesTax.recordTransaction({
      calculationId,
      reference: orderId,
      idempotencyKey: `order-${orderId}-tax-transaction`,
    });
    await invoices.recordTaxTransaction(orderId, transactionId);
  }

  private async announced(record: InvoiceRecord, event: OrderEventMessage): Promise<InvoiceRecord> {
    await this.options.events.send(event, 0);
    return record;
  }

  private lookbackFrom(order: Order): number {
    const shippedAt = Date.parse(order.shipment?.shippedAt ?? order.createdAt);
    return Math.floor(shippedAt / 1000) - LOOKBACK_SECONDS;
  }

  private newRecord(order: Order, invoice: ProviderInvoice): InvoiceRecord {
    const { number, dueDate, finalizedAt, hostedInvoiceUrl, invoicePdf } = invoice;
    if (!number || !dueDate || !finalizedAt || !hostedInvoiceUrl || !invoicePdf || invoice.status === 'draft') {
      throw new RangeError(`Invoice ${invoice.id} of order ${order.id} is not finalized`);
    }
    const now = this.options.clock.now().toISOString();
    return {
      id: invoiceIdFor(order.id),
      orderId: order.id,
      partnerId: order.partnerId as PartnerId,
      organizationId: order.organizationId,
      internalOrgId: order.internalOrgId,
      stripeInvoiceId: invoice.id,
      number,
      status: invoice.status,
      totalCents: invoice.totalCents,
      subtotalCents: order.subtotalCents,
      taxCents: order.taxCents,
      shippingCents: order.shippingCents,
      lines: order.items.map((item) => ({
        description: item.name,
        sku: item.productId,
        quantity: item.quantity,
        unitAmountCents: item.unitPriceCents,
        amountCents: item.quantity * item.unitPriceCents,
      })),
      amountDueCents: invoice.amountRemainingCents,
      amountPaidCents: invoice.amountPaidCents,
      amountCreditedCents: 0,
      dueDate,
      hostedInvoiceUrl,
      invoicePdf,
      ...(order.poNumber ? { poNumber: order.poNumber } : {}),
      creditNotes: [],
      issuedAt: finalizedAt,
      updatedAt: now,
      version: 1,
    };
  }
}

/**
 * The invoice's lines: one per item (quantity × unit price, named with its SKU), then the
 * order's shipping and sales tax as Stripe Tax calculated them at checkout, so the
 * invoice's total and tax are the order's to the cent (the invoice never recomputes tax;
 * docs/decisions.md says why not the invoice's `automatic_tax`).
 */
function invoiceLines(order: Order): InvoiceLine[] {
  const lines: InvoiceLine[] = order.items.map((item) => ({
    description: `${item.name} (SKU ${item.productId})`,
    quantity: item.quantity,
    unitAmountCents: item.unitPriceCents,
    sku: item.productId,
  }));
  if (order.shippingCents > 0)
    lines.push({ description: 'Shipping', quantity: 1, unitAmountCents: order.shippingCents });
  if (order.taxCents > 0) lines.push({ description: 'Sales tax', quantity: 1, unitAmountCents: order.taxCents });
  return lines;
}
