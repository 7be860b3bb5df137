/**
 * The stand-in's invoices and credit notes, and what Stripe lets happen to them: drafts get
 * lines, are finalized (number, due date, hosted page), paid, voided or marked
 * uncollectible, credited; each change that Stripe announces is handed to `emit`.
 */
import type Stripe from 'stripe';
import { StripeError } from './stripe-error';
import { type FormValue, integer, list, record, text } from './stripe-form-body';
import { STAND_IN_SELLER } from './stripe-stand-in-account';
import { draftInvoice, issuedCreditNote, stripeId } from './stripe-stand-in-objects';

export type InvoiceEventType =
  | 'invoice.finalized'
  | 'invoice.paid'
  | 'invoice.payment_failed'
  | 'invoice.overdue'
  | 'invoice.voided'
  | 'invoice.marked_uncollectible';

export type StandInEvent =
  | { readonly type: InvoiceEventType; readonly object: Stripe.Invoice }
  | { readonly type: 'credit_note.created'; readonly object: Stripe.CreditNote };

/** What the store keeps across a restart (stripe-stand-in-state.ts). */
export interface InvoiceStoreSnapshot {
  readonly invoices: Stripe.Invoice[];
  readonly creditNotes: Stripe.CreditNote[];
  readonly daysUntilDue: [string, number][];
  readonly sequence: number;
}

export class StripeInvoiceStore {
  private readonly invoices = new Map<string, Stripe.Invoice>();
  private readonly creditNotes = new Map<string, Stripe.CreditNote>();
  private readonly daysUntilDue = new Map<string, number>();
  private sequence = 0;

  constructor(
    private readonly options: {
      /** Where the stand-in itself is reached (hosted pages and PDFs link to it). */
      readonly baseUrl: () => string;
      /** Stripe's clock: whole seconds. */
      readonly seconds: () => number;
      readonly emit: (event: StandInEvent) => void;
    },
  ) {}

  snapshot(): InvoiceStoreSnapshot {
    return {
      invoices: [...this.invoices.values()],
      creditNotes: [...this.creditNotes.values()],
      daysUntilDue: [...this.daysUntilDue.entries()],
      sequence: this.sequence,
    };
  }

  restore(snapshot: InvoiceStoreSnapshot): void {
    for (const invoice of snapshot.invoices) this.invoices.set(invoice.id, invoice);
    for (const note of snapshot.creditNotes) this.creditNotes.set(note.id, note);
    for (const [id, days] of snapshot.daysUntilDue) this.daysUntilDue.set(id, days);
    this.sequence = snapshot.sequence;
  }

  /** The invoice a hosted page shows: none for an unknown id or a draft. */
  hostedInvoice(id: string): Stripe.Invoice | undefined {
    const invoice = this.invoices.get(id);
    return invoice?.status === 'draft' ? undefined : invoice;
  }

  createInvoice(body: Record<string, FormValue>): Stripe.Invoice {
    const customer = text(body.customer);
    if (!customer)
      throw new StripeError(400, 'invalid_request_error', 'Missing required param: customer.', 'parameter_missing');
    const collection = text(body.collection_method) === 'send_invoice' ? 'send_invoice' : 'charge_automatically';
    const daysUntilDue = integer(body.days_until_due);
    if (collection === 'send_invoice' && daysUntilDue === undefined)
      throw new StripeError(
        400,
        'invalid_request_error',
        'Missing required param: days_until_due.',
        'parameter_missing',
      );
    const created = this.options.seconds();
    const id = stripeId('in');
    const invoice = draftInvoice({ id, customer, collection, created, body });
    // Days until due are kept aside until finalization fixes the due date, as Stripe's do.
    this.daysUntilDue.set(id, daysUntilDue ?? 0);
    this.invoices.set(id, invoice);
    return invoice;
  }

  listInvoices(query: Record<string, FormValue>): Stripe.ApiList<Stripe.Invoice> {
    const customer = text(query.customer);
    const createdSince = integer(record(query.created).gte ?? '') ?? integer(query.created);
    const limit = Math.min(integer(query.limit) ?? 10, 100);
    const after = text(query.starting_after);
    const matching = [...this.invoices.values()]
      .filter(
        (invoice) =>
          (customer === undefined || invoice.customer === customer) && invoice.created >= (createdSince ?? 0),
      )
      .reverse();
    const start = after ? matching.findIndex((invoice) => invoice.id === after) + 1 : 0;
    const data = matching.slice(start, start + limit);
    return { object: 'list', data, has_more: start + limit < matching.length, url: '/v1/invoices' };
  }

  invoice(id: string): Stripe.Invoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw new StripeError(404, 'invalid_request_error', `No such invoice: '${id}'`, 'resource_missing');
    return invoice;
  }

  addLines(id: string, body: Record<string, FormValue>): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'draft')
      throw new StripeError(
        400,
        'invalid_request_error',
        'You can only add lines to a draft invoice.',
        'invoice_not_editable',
      );
    const lines = list(body.lines);
    if (lines.length === 0)
      throw new StripeError(400, 'invalid_request_error', 'Missing required param: lines.', 'parameter_missing');
    for (const raw of lines) {
      const line = typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
      const priceData = typeof line.price_data === 'object' && !Array.isArray(line.price_data) ? line.price_data : {};
      const quantity = integer(line.quantity) ?? 1;
      const unit = integer(priceData.unit_amount);
      const amount = unit === undefined ? integer(line.amount) : unit * quantity;
      if (amount === undefined || amount < 0)
        throw new StripeError(400, 'invalid_request_error', 'Each line needs an amount or price_data[unit_amount].');
      const productName = record(priceData.product_data).name;
      invoice.lines.data.push({
        id: stripeId('il'),
        object: 'line_item',
        amount,
        currency: 'usd',
        description: text(line.description) ?? productName ?? null,
        discount_amounts: [],
        discountable: true,
        discounts: [],
        invoice: id,
        livemode: false,
        metadata: record(line.metadata),
        parent: null,
        period: { start: invoice.created, end: invoice.created },
        pretax_credit_amounts: [],
        pricing: null,
        quantity,
        quantity_decimal: null,
        subscription: null,
        subtotal: amount,
        taxes: [],
      });
    }
    const total = invoice.lines.data.reduce((sum, line) => sum + line.amount, 0);
    Object.assign(invoice, {
      subtotal: total,
      subtotal_excluding_tax: total,
      total,
      total_excluding_tax: total,
      amount_due: total,
      amount_remaining: total,
    });
    return invoice;
  }

  /** The terms an invoice was created with (`days_until_due`), as its page and PDF print them. */
  daysUntilDueOf(id: string): number {
    return this.daysUntilDue.get(id) ?? 0;
  }

  /**
   * Finalizes a draft: its number, due date, page and PDF, and, as Stripe does, the
   * customer's name, e-mail and address as they are now (`customer_*`), which the page prints.
   */
  finalize(id: string, customer?: Pick<Stripe.Customer, 'name' | 'email' | 'address'>): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'draft')
      throw new StripeError(
        400,
        'invalid_request_error',
        "This invoice is already finalized, you can't re-finalize a non-draft invoice.",
        'invoice_not_editable',
      );
    const at = this.options.seconds();
    const base = this.options.baseUrl();
    Object.assign(invoice, {
      status: 'open',
      number: `${invoice.customer?.toString().slice(-8).toUpperCase()}-${String(++this.sequence).padStart(4, '0')}`,
      due_date: at + (this.daysUntilDue.get(id) ?? 0) * 86_400,
      effective_at: at,
      hosted_invoice_url: `${base}/hosted/invoices/${id}`,
      invoice_pdf: `${base}/hosted/invoices/${id}/pdf`,
      account_name: STAND_IN_SELLER.name,
      customer_name: customer?.name ?? null,
      customer_email: customer?.email ?? null,
      customer_address: customer?.address ?? null,
    });
    invoice.status_transitions.finalized_at = at;
    this.options.emit({ type: 'invoice.finalized', object: invoice });
    return invoice;
  }

  /** Pays an open invoice in full (the hosted page's `Pay`, or `invoices.pay`). */
  pay(id: string): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        `Invoice is ${invoice.status}; only an open invoice can be paid.`,
        'invoice_not_open',
      );
    invoice.amount_paid += invoice.amount_remaining;
    invoice.amount_remaining = 0;
    invoice.status = 'paid';
    invoice.status_transitions.paid_at = this.options.seconds();
    this.options.emit({ type: 'invoice.paid', object: invoice });
    return invoice;
  }

  /**
   * The stand-in's own trigger for what Stripe does on its clock: the due date passes on
   * an open invoice, and Stripe sends `invoice.overdue` (the invoice stays `open`).
   */
  markOverdue(id: string): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        `Invoice is ${invoice.status}; only an open invoice becomes overdue.`,
        'invoice_not_open',
      );
    invoice.due_date = this.options.seconds() - 1;
    this.options.emit({ type: 'invoice.overdue', object: invoice });
    return invoice;
  }

  /** A failed payment attempt: the invoice stays open, Stripe sends `invoice.payment_failed`. */
  failPayment(id: string): Stripe.Invoice {
    const invoice = this.invoice(id);
    invoice.attempt_count += 1;
    invoice.attempted = true;
    this.options.emit({ type: 'invoice.payment_failed', object: invoice });
    return invoice;
  }

  close(id: string, status: 'void' | 'uncollectible', event: InvoiceEventType): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open' && !(status === 'void' && invoice.status === 'uncollectible'))
      throw new StripeError(400, 'invalid_request_error', `Invoice is ${invoice.status}.`, 'invoice_not_open');
    invoice.status = status;
    if (status === 'void') invoice.status_transitions.voided_at = this.options.seconds();
    else invoice.status_transitions.marked_uncollectible_at = this.options.seconds();
    this.options.emit({ type: event, object: invoice });
    return invoice;
  }

  createCreditNote(body: Record<string, FormValue>): Stripe.CreditNote {
    const invoice = this.invoice(text(body.invoice) ?? '');
    if (invoice.status === 'draft')
      throw new StripeError(400, 'invalid_request_error', 'Credit notes can only be issued for finalized invoices.');
    const amount = integer(body.amount);
    const credited = invoice.pre_payment_credit_notes_amount + invoice.post_payment_credit_notes_amount;
    if (amount === undefined || amount <= 0 || amount > invoice.total - credited)
      throw new StripeError(
        400,
        'invalid_request_error',
        `The credit note amount must be between 1 and ${invoice.total - credited}.`,
      );
    const prePayment = invoice.status === 'open' ? Math.min(amount, invoice.amount_remaining) : 0;
    const postPayment = amount - prePayment;
    invoice.pre_payment_credit_notes_amount += prePayment;
    invoice.post_payment_credit_notes_amount += postPayment;
    invoice.amount_remaining -= prePayment;
    if (invoice.status === 'open' && invoice.amount_remaining === 0) {
      invoice.status = 'paid';
      invoice.status_transitions.paid_at = this.options.seconds();
    }
    const id = stripeId('cn');
    const note = issuedCreditNote({
      id,
      invoice,
      amount,
      prePayment,
      at: this.options.seconds(),
      number: `${invoice.number}-CN-${String(this.creditNotesOf(invoice.id).length + 1).padStart(2, '0')}`,
      pdf: `${this.options.baseUrl()}/hosted/credit_notes/${id}/pdf`,
      body,
    });
    this.creditNotes.set(id, note);
    this.options.emit({ type: 'credit_note.created', object: note });
    return note;
  }

  /** An invoice's credit notes, oldest first. */
  creditNotesOf(invoiceId: string): Stripe.CreditNote[] {
    return [...this.creditNotes.values()].filter((note) => note.invoice === invoiceId);
  }

  listCreditNotes(query: Record<string, FormValue>): Stripe.ApiList<Stripe.CreditNote> {
    const invoice = text(query.invoice);
    const data = [...this.creditNotes.values()].filter((note) => invoice === undefined || note.invoice === invoice);
    return { object: 'list', data: data.reverse(), has_more: false, url: '/v1/credit_notes' };
  }
}
