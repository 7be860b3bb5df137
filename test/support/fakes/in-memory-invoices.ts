import {
  ConcurrentModification,
  StripeEventAlreadyProcessed,
  ValidationFailed,
} from '../../../functions/domain/errors';
import type { InvoiceRecord } from '../../../functions/domain/billing/invoice';
import type { InvoicePageRequest, InvoiceRepository } from '../../../functions/domain/billing/invoice-repository';
import type {
  CreditNoteRequest,
  DraftInvoiceRequest,
  InvoiceLine,
  InvoicingProvider,
  ProviderCreditNote,
  ProviderInvoice,
} from '../../../functions/domain/billing/invoicing-provider';

/** Invoice records with the DynamoDB adapter's conditions: the first record wins, updates apply to the version read. */
export class InMemoryInvoiceRepository implements InvoiceRepository {
  readonly records = new Map<string, InvoiceRecord>();
  readonly processedEvents = new Set<string>();

  async record(invoice: InvoiceRecord) {
    const stored = this.records.get(invoice.orderId);
    if (stored) return { invoice: structuredClone(stored), created: false };
    this.records.set(invoice.orderId, structuredClone(invoice));
    return { invoice, created: true };
  }

  async getByOrder(orderId: string) {
    const stored = this.records.get(orderId);
    return stored && structuredClone(stored);
  }

  async update(invoice: InvoiceRecord, stripeEventId?: string) {
    if (this.records.get(invoice.orderId)?.version !== invoice.version - 1)
      throw new ConcurrentModification(`Invoice ${invoice.id} changed since it was read`);
    if (stripeEventId && this.processedEvents.has(stripeEventId)) throw new StripeEventAlreadyProcessed(stripeEventId);
    if (stripeEventId) this.processedEvents.add(stripeEventId);
    this.records.set(invoice.orderId, structuredClone(invoice));
  }

  async get(invoiceId: string) {
    const stored = [...this.records.values()].find((record) => record.id === invoiceId);
    return stored && structuredClone(stored);
  }

  async listByOrganization(organizationId: string, page: InvoicePageRequest) {
    const newestFirst = [...this.records.values()]
      .filter((record) => record.organizationId === organizationId)
      .sort((a, b) => `${b.issuedAt}#${b.id}`.localeCompare(`${a.issuedAt}#${a.id}`));
    let from = 0;
    if (page.startingAfter !== undefined) {
      from = newestFirst.findIndex((record) => record.id === page.startingAfter) + 1;
      if (from === 0)
        throw new ValidationFailed([
          { code: 'INVALID_CURSOR', message: 'is no invoice of this organization', path: ['starting_after'] },
        ]);
    }
    const matching = newestFirst
      .slice(from)
      .filter((record) => page.status === undefined || record.status === page.status);
    return {
      invoices: matching.slice(0, page.limit).map((record) => structuredClone(record)),
      hasMore: matching.length > page.limit,
    };
  }

  readonly taxTransactions = new Map<string, { transactionId?: string }>();

  async taxTransactionOf(orderId: string) {
    return this.taxTransactions.get(orderId);
  }

  async recordTaxTransaction(orderId: string, transactionId: string | undefined) {
    if (!this.taxTransactions.has(orderId))
      this.taxTransactions.set(orderId, transactionId === undefined ? {} : { transactionId });
  }

  async markEventProcessed(stripeEventId: string) {
    if (this.processedEvents.has(stripeEventId)) return false;
    this.processedEvents.add(stripeEventId);
    return true;
  }
}

type Step = 'find' | 'create' | 'addLines' | 'finalize' | 'creditNote';

/**
 * Stripe Invoicing as the port sees it, in memory: idempotency keys return the first
 * answer, and a step can be made to fail before Stripe acts (outage) or after (lost answer).
 */
export class InMemoryInvoicing implements InvoicingProvider {
  readonly invoices = new Map<string, ProviderInvoice & { orderId: string; lines: InvoiceLine[] }>();
  readonly creditNotes: (ProviderCreditNote & { invoiceId: string })[] = [];
  private readonly answers = new Map<string, unknown>();
  private readonly failures: { step: Step; when: 'before' | 'after' }[] = [];

  failAt(step: Step, when: 'before' | 'after'): void {
    this.failures.push({ step, when });
  }

  private async run<T>(step: Step, key: string | undefined, act: () => T): Promise<T> {
    const index = this.failures.findIndex((failure) => failure.step === step);
    const failure = index >= 0 ? this.failures.splice(index, 1)[0] : undefined;
    if (failure?.when === 'before') throw new Error(`Stripe unreachable at ${step}`);
    const answer = key && this.answers.has(key) ? (this.answers.get(key) as T) : act();
    if (key) this.answers.set(key, answer);
    if (failure?.when === 'after') throw new Error(`Stripe's answer to ${step} was lost`);
    return structuredClone(answer);
  }

  findOrderInvoice(customerId: string, orderId: string) {
    return this.run('find', undefined, () =>
      [...this.invoices.values()].find((invoice) => invoice.orderId === orderId),
    );
  }

  createDraft(request: DraftInvoiceRequest) {
    return this.run('create', request.idempotencyKey, () => {
      const invoice = {
        id: `in_${this.invoices.size + 1}`,
        orderId: request.owner.orderId,
        status: 'draft' as const,
        lineCount: 0,
        lines: [],
        totalCents: 0,
        amountRemainingCents: 0,
        amountPaidCents: 0,
      };
      this.invoices.set(invoice.id, invoice);
      return invoice;
    });
  }

  addLines(invoiceId: string, lines: readonly InvoiceLine[], idempotencyKey: string) {
    return this.run('addLines', idempotencyKey, () => {
      const invoice = this.stored(invoiceId);
      invoice.lines.push(...lines);
      const totalCents = invoice.lines.reduce((sum, line) => sum + line.quantity * line.unitAmountCents, 0);
      return Object.assign(invoice, { lineCount: invoice.lines.length, totalCents, amountRemainingCents: totalCents });
    });
  }

  finalize(invoiceId: string, idempotencyKey: string) {
    return this.run('finalize', idempotencyKey, () => {
      const invoice = this.stored(invoiceId);
      if (invoice.status !== 'draft') throw new Error(`Invoice ${invoiceId} is already finalized`);
      Object.assign(invoice, {
        status: 'open',
        number: `TEST-${invoiceId}`,
        dueDate: '2036-02-01T00:00:00.000Z',
        finalizedAt: '2036-01-02T00:00:00.000Z',
        hostedInvoiceUrl: `https://invoice.test/${invoiceId}`,
        invoicePdf: `https://invoice.test/${invoiceId}/pdf`,
      });
      return invoice;
    });
  }

  createCreditNote(request: CreditNoteRequest) {
    return this.run('creditNote', request.idempotencyKey, () => {
      const note = {
        id: `cn_${this.creditNotes.length + 1}`,
        invoiceId: request.invoiceId,
        amountCents: request.amountCents,
        createdAt: '2036-01-03T00:00:00.000Z',
      };
      this.creditNotes.push(note);
      return note;
    });
  }

  async retrieve(invoiceId: string) {
    const invoice = this.invoices.get(invoiceId);
    return invoice && structuredClone(invoice);
  }

  private stored(invoiceId: string) {
    const invoice = this.invoices.get(invoiceId);
    if (!invoice) throw new Error(`No such invoice: ${invoiceId}`);
    return invoice as ProviderInvoice & { orderId: string; lines: InvoiceLine[]; [field: string]: unknown };
  }
}
