import { correlate, correlateAction } from '../correlation';
import { InvoiceNotFound, InvoiceNotOpen, InvoiceUnknownToProvider } from '../errors';
import type { PartnerId } from '../partners/partner';
import type { InvoiceRecord } from './invoice';
import type { InvoiceRepository } from './invoice-repository';

/**
 * What the sandbox asks of the payment provider: the two things a buyer's bank or the
 * calendar would do. The provider then sends its own event (invoice.paid, invoice.overdue)
 * to `POST /v1/stripe/events`, so the record changes only through the real path.
 */
export interface SandboxPaymentProvider {
  /** Pays the provider's invoice in full. */
  pay(providerInvoiceId: string): Promise<void>;
  /** Makes the provider's invoice fall due now. */
  markOverdue(providerInvoiceId: string): Promise<void>;
}

/** The provider's refusals name the partner's invoice (`inv_…`), never the provider's id. */
async function named(invoice: InvoiceRecord, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof InvoiceNotOpen) throw new InvoiceNotOpen(invoice.id, 'no longer open at Stripe');
    if (error instanceof InvoiceUnknownToProvider) throw new InvoiceUnknownToProvider(invoice.id);
    throw error;
  }
}

/** Only an unpaid invoice can be paid or fall overdue; paid, void and uncollectible are final. */
const ACTIONABLE: ReadonlySet<InvoiceRecord['status']> = new Set(['open', 'overdue']);

/** The sandbox's invoice actions (docs/billing.md, "Sandbox"): a partner's CI drives the billing loop. */
export class SandboxInvoices {
  constructor(
    private readonly invoices: Pick<InvoiceRepository, 'get'>,
    private readonly provider: SandboxPaymentProvider,
  ) {}

  async pay(partnerId: PartnerId, invoiceId: string): Promise<InvoiceRecord> {
    const invoice = await this.actionable(partnerId, invoiceId, 'invoice-pay');
    await named(invoice, () => this.provider.pay(invoice.stripeInvoiceId));
    return invoice;
  }

  async markOverdue(partnerId: PartnerId, invoiceId: string): Promise<InvoiceRecord> {
    const invoice = await this.actionable(partnerId, invoiceId, 'invoice-overdue');
    await named(invoice, () => this.provider.markOverdue(invoice.stripeInvoiceId));
    return invoice;
  }

  private async actionable(partnerId: PartnerId, invoiceId: string, action: string): Promise<InvoiceRecord> {
    const invoice = await this.invoices.get(invoiceId);
    // Another partner's invoice is none of this one's: the same 404 as no invoice.
    if (!invoice || invoice.partnerId !== partnerId) throw new InvoiceNotFound(invoiceId);
    // The request joins its order's story (`ops order trace`), refused or not.
    correlate({ orderId: invoice.orderId });
    correlateAction(action);
    if (!ACTIONABLE.has(invoice.status)) throw new InvoiceNotOpen(invoiceId, invoice.status);
    return invoice;
  }
}
