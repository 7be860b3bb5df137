import type Stripe from 'stripe';
import type {
  CreditNoteRequest,
  DraftInvoiceRequest,
  InvoiceLine,
  InvoicingProvider,
  ProviderCreditNote,
  ProviderInvoice,
} from '../domain/billing/invoicing-provider';

/** The custom field that carries the buyer's PO number on the invoice and its PDF. */
const PO_NUMBER_FIELD = 'PO number';

/** Stripe Invoicing behind the domain's port: every write under the caller's idempotency key. */
export class StripeInvoicing implements InvoicingProvider {
  constructor(private readonly stripe: () => Promise<Stripe>) {}

  async findOrderInvoice(customerId: string, orderId: string, createdSince: number) {
    const stripe = await this.stripe();
    for await (const invoice of stripe.invoices.list({
      customer: customerId,
      created: { gte: createdSince },
      limit: 100,
    })) {
      if (invoice.metadata?.orderId === orderId) return toProviderInvoice(invoice);
    }
    return undefined;
  }

  async createDraft(request: DraftInvoiceRequest) {
    const stripe = await this.stripe();
    const { owner } = request;
    const invoice = await stripe.invoices.create(
      {
        customer: request.customerId,
        collection_method: 'send_invoice',
        days_until_due: request.daysUntilDue,
        // Finalized by us once its lines are in, never by Stripe on a timer.
        auto_advance: false,
        ...(request.poNumber ? { custom_fields: [{ name: PO_NUMBER_FIELD, value: request.poNumber }] } : {}),
        metadata: {
          orderId: owner.orderId,
          partnerId: owner.partnerId,
          organizationId: owner.organizationId,
          internalOrgId: owner.internalOrgId,
          environment: owner.environment,
        },
      },
      { idempotencyKey: request.idempotencyKey },
    );
    return toProviderInvoice(invoice);
  }

  async addLines(invoiceId: string, lines: readonly InvoiceLine[], idempotencyKey: string) {
    const stripe = await this.stripe();
    const invoice = await stripe.invoices.addLines(
      invoiceId,
      {
        lines: lines.map((line) => ({
          price_data: {
            currency: 'usd',
            product_data: { name: line.description, ...(line.sku ? { metadata: { sku: line.sku } } : {}) },
            unit_amount: line.unitAmountCents,
          },
          quantity: line.quantity,
          ...(line.sku ? { metadata: { sku: line.sku } } : {}),
        })),
      },
      { idempotencyKey },
    );
    return toProviderInvoice(invoice);
  }

  async finalize(invoiceId: string, idempotencyKey: string) {
    const stripe = await this.stripe();
    return toProviderInvoice(await stripe.invoices.finalizeInvoice(invoiceId, {}, { idempotencyKey }));
  }

  async createCreditNote(request: CreditNoteRequest): Promise<ProviderCreditNote> {
    const stripe = await this.stripe();
    const note = await stripe.creditNotes.create(
      {
        invoice: request.invoiceId,
        amount: request.amountCents,
        metadata: { ...request.metadata },
        ...(request.memo ? { memo: request.memo } : {}),
      },
      { idempotencyKey: request.idempotencyKey },
    );
    return {
      id: note.id,
      amountCents: note.amount,
      createdAt: new Date(note.created * 1000).toISOString(),
      ...(note.number ? { number: note.number } : {}),
      ...(note.pdf ? { pdf: note.pdf } : {}),
    };
  }

  async retrieve(invoiceId: string): Promise<ProviderInvoice | undefined> {
    const stripe = await this.stripe();
    try {
      return toProviderInvoice(await stripe.invoices.retrieve(invoiceId));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'resource_missing') return undefined;
      throw error;
    }
  }
}

const isoSeconds = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();

function toProviderInvoice(invoice: Stripe.Invoice): ProviderInvoice {
  const dueDate = isoSeconds(invoice.due_date);
  const finalizedAt = isoSeconds(invoice.status_transitions.finalized_at);
  return {
    id: invoice.id,
    status: providerStatus(invoice.status),
    lineCount: invoice.lines.data.length,
    totalCents: invoice.total,
    amountRemainingCents: invoice.amount_remaining,
    amountPaidCents: invoice.amount_paid,
    ...(invoice.number ? { number: invoice.number } : {}),
    ...(dueDate ? { dueDate } : {}),
    ...(finalizedAt ? { finalizedAt } : {}),
    ...(invoice.hosted_invoice_url ? { hostedInvoiceUrl: invoice.hosted_invoice_url } : {}),
    ...(invoice.invoice_pdf ? { invoicePdf: invoice.invoice_pdf } : {}),
  };
}

const KNOWN_STATUSES: readonly ProviderInvoice['status'][] = ['draft', 'open', 'paid', 'void', 'uncollectible'];

const providerStatus = (status: Stripe.Invoice['status']): ProviderInvoice['status'] => {
  const known = KNOWN_STATUSES.find((candidate) => candidate === status);
  if (!known) throw new RangeError(`Stripe answered an invoice in status ${String(status)}`);
  return known;
};
