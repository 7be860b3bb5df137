// Project-owned stand-in for the Stripe Invoicing endpoints the service calls: stripe-stateful-mock has no invoices,
// invoice items, credit notes or events, and no npm package serves them. It answers the real `stripe` SDK with
// objects typed as the SDK's own (`Stripe.Invoice`, `Stripe.CreditNote`, `Stripe.Event`), serves the hosted invoice
// page and its PDF, and sends signed events (the SDK's `generateTestHeaderString`) to the webhook endpoints registered
// with it. Deliberately narrow (docs/decisions.md): what it does not serve it refuses with Stripe's 404 shape.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { hostedInvoicePage } from './stripe-hosted-invoice-page';
import { invoicePdf } from './stripe-invoice-pdf';
import { type FormValue, integer, list, parseStripeForm, record, text } from './stripe-form-body';
import { formatUsd } from '../../functions/domain/money';

export interface StripeInvoicingStandInOptions {
  /** Where the stand-in itself is reached (hosted pages and PDFs link to it). */
  readonly baseUrl: () => string;
  /** Injected so tests control `created`, due dates and event times. */
  readonly now?: () => Date;
  /** Delivers a signed event; the default POSTs it. Tests may capture instead. */
  readonly deliver?: (url: string, body: string, signature: string) => Promise<void>;
}

interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
}

type InvoiceEventType =
  | 'invoice.finalized'
  | 'invoice.paid'
  | 'invoice.payment_failed'
  | 'invoice.overdue'
  | 'invoice.voided'
  | 'invoice.marked_uncollectible';

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const API_VERSION = '2025-11-17.clover';
const sdk = new Stripe('sk_test_stand_in');

/** Paths this stand-in answers; everything else on the port is stripe-stateful-mock's. */
export const servesStripePath = (path: string): boolean =>
  /^\/v1\/(invoices|credit_notes|webhook_endpoints)(\/|$|\?)/.test(path) || /^\/(hosted|stand-in)\//.test(path);

export class StripeInvoicingStandIn {
  private readonly invoices = new Map<string, Stripe.Invoice>();
  private readonly creditNotes = new Map<string, Stripe.CreditNote>();
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  /** Idempotency-Key → the request it came with and the answer given. */
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  private readonly pendingDeliveries = new Set<Promise<void>>();
  private sequence = 0;
  private readonly now: () => Date;

  constructor(private readonly options: StripeInvoicingStandInOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Waits for every event sent so far to be delivered (or to fail). */
  async settled(): Promise<void> {
    while (this.pendingDeliveries.size > 0) await Promise.allSettled([...this.pendingDeliveries]);
  }

  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = req.method === 'POST' ? parseStripeForm(await readBody(req)) : {};
      const query = parseStripeForm(url.search.slice(1));
      if (url.pathname.startsWith('/hosted/')) return await this.hosted(req.method ?? 'GET', url.pathname, res);
      if (url.pathname.startsWith('/stand-in/')) return send(res, 200, this.trigger(req.method ?? 'GET', url.pathname));
      const key = req.headers['idempotency-key'];
      const answer = () => this.api(req.method ?? 'GET', url.pathname, body, query);
      if (req.method === 'POST' && typeof key === 'string') {
        const fingerprint = createHash('sha256')
          .update(`${url.pathname}\n${JSON.stringify(body)}`)
          .digest('hex');
        const stored = this.idempotent.get(key);
        if (stored && stored.fingerprint !== fingerprint)
          throw new StripeError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          );
        if (stored) return send(res, stored.status, stored.body, { 'Idempotent-Replayed': 'true' });
        const result = await answer();
        this.idempotent.set(key, { fingerprint, status: 200, body: result });
        return send(res, 200, result);
      }
      return send(res, 200, await answer());
    } catch (error) {
      if (error instanceof StripeError)
        return send(res, error.status, {
          error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}) },
        });
      return send(res, 500, { error: { type: 'api_error', message: String(error) } });
    }
  };

  private async api(
    method: string,
    path: string,
    body: Record<string, FormValue>,
    query: Record<string, FormValue>,
  ): Promise<unknown> {
    // Stripe's own paths (not our route table's): the method, then the path with its object id as `:id`.
    const shape = path.replace(/\/(in|cn|we)_[A-Za-z0-9]+/g, '/:id');
    const id = /\/((in|cn|we)_[A-Za-z0-9]+)/.exec(path)?.[1] ?? '';
    const served: Readonly<Record<string, Partial<Record<string, () => unknown>>>> = {
      '/v1/invoices': { POST: () => this.createInvoice(body), GET: () => this.listInvoices(query) },
      '/v1/invoices/:id': { GET: () => this.invoice(id) },
      '/v1/invoices/:id/add_lines': { POST: () => this.addLines(id, body) },
      '/v1/invoices/:id/finalize': { POST: () => this.finalize(id) },
      '/v1/invoices/:id/pay': { POST: () => this.pay(id) },
      '/v1/invoices/:id/void': { POST: () => this.close(id, 'void', 'invoice.voided') },
      '/v1/invoices/:id/mark_uncollectible': {
        POST: () => this.close(id, 'uncollectible', 'invoice.marked_uncollectible'),
      },
      '/v1/credit_notes': { POST: () => this.createCreditNote(body), GET: () => this.listCreditNotes(query) },
      '/v1/webhook_endpoints': { POST: () => this.createEndpoint(body) },
    };
    const methods = Object.hasOwn(served, shape) ? served[shape] : undefined;
    const run = methods && Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!run) throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    return run();
  }

  private createInvoice(body: Record<string, FormValue>): Stripe.Invoice {
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
    const created = this.seconds();
    const id = this.newId('in');
    const invoice: Stripe.Invoice = {
      id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Stand-in supplies',
      account_tax_ids: null,
      amount_due: 0,
      amount_overpaid: 0,
      amount_paid: 0,
      amount_remaining: 0,
      amount_shipping: 0,
      application: null,
      attempt_count: 0,
      attempted: false,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
      automatically_finalizes_at: null,
      billing_reason: 'manual',
      collection_method: collection,
      created,
      currency: 'usd',
      custom_fields: list(body.custom_fields).map((field) => {
        const { name = '', value = '' } = record(field);
        return { name, value };
      }),
      customer,
      customer_account: null,
      customer_address: null,
      customer_email: null,
      customer_name: null,
      customer_phone: null,
      customer_shipping: null,
      customer_tax_exempt: 'none',
      default_payment_method: null,
      default_source: null,
      default_tax_rates: [],
      description: text(body.description) ?? null,
      discounts: [],
      due_date: null,
      effective_at: null,
      ending_balance: null,
      footer: null,
      from_invoice: null,
      hosted_invoice_url: null,
      invoice_pdf: null,
      issuer: { type: 'self' },
      last_finalization_error: null,
      latest_revision: null,
      lines: { object: 'list', data: [], has_more: false, url: `/v1/invoices/${id}/lines` },
      livemode: false,
      metadata: record(body.metadata),
      next_payment_attempt: null,
      number: null,
      on_behalf_of: null,
      parent: null,
      payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
      period_end: created,
      period_start: created,
      post_payment_credit_notes_amount: 0,
      pre_payment_credit_notes_amount: 0,
      receipt_number: null,
      rendering: null,
      shipping_cost: null,
      shipping_details: null,
      starting_balance: 0,
      statement_descriptor: null,
      status: 'draft',
      status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subtotal: 0,
      subtotal_excluding_tax: 0,
      test_clock: null,
      total: 0,
      total_discount_amounts: [],
      total_excluding_tax: 0,
      total_pretax_credit_amounts: [],
      total_taxes: [],
      webhooks_delivered_at: null,
    };
    // Days until due are kept aside until finalization fixes the due date, as Stripe's do.
    this.daysUntilDue.set(id, daysUntilDue ?? 0);
    this.invoices.set(id, invoice);
    return invoice;
  }

  private readonly daysUntilDue = new Map<string, number>();

  private listInvoices(query: Record<string, FormValue>): Stripe.ApiList<Stripe.Invoice> {
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

  private invoice(id: string): Stripe.Invoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw new StripeError(404, 'invalid_request_error', `No such invoice: '${id}'`, 'resource_missing');
    return invoice;
  }

  private addLines(id: string, body: Record<string, FormValue>): Stripe.Invoice {
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
        id: this.newId('il'),
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

  private finalize(id: string): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'draft')
      throw new StripeError(
        400,
        'invalid_request_error',
        "This invoice is already finalized, you can't re-finalize a non-draft invoice.",
        'invoice_not_editable',
      );
    const at = this.seconds();
    const base = this.options.baseUrl();
    Object.assign(invoice, {
      status: 'open',
      number: `${invoice.customer?.toString().slice(-8).toUpperCase()}-${String(++this.sequence).padStart(4, '0')}`,
      due_date: at + (this.daysUntilDue.get(id) ?? 0) * 86_400,
      effective_at: at,
      hosted_invoice_url: `${base}/hosted/invoices/${id}`,
      invoice_pdf: `${base}/hosted/invoices/${id}/pdf`,
    });
    invoice.status_transitions.finalized_at = at;
    this.emit('invoice.finalized', invoice);
    return invoice;
  }

  /** Pays an open invoice in full (the hosted page's `Pay`, or `invoices.pay`). */
  private pay(id: string): Stripe.Invoice {
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
    invoice.status_transitions.paid_at = this.seconds();
    this.emit('invoice.paid', invoice);
    return invoice;
  }

  /**
   * The stand-in's own trigger for what Stripe does on its clock: the due date passes on
   * an open invoice, and Stripe sends `invoice.overdue` (the invoice stays `open`).
   */
  private markOverdue(id: string): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        `Invoice is ${invoice.status}; only an open invoice becomes overdue.`,
        'invoice_not_open',
      );
    invoice.due_date = this.seconds() - 1;
    this.emit('invoice.overdue', invoice);
    return invoice;
  }

  /** A failed payment attempt: the invoice stays open, Stripe sends `invoice.payment_failed`. */
  private failPayment(id: string): Stripe.Invoice {
    const invoice = this.invoice(id);
    invoice.attempt_count += 1;
    invoice.attempted = true;
    this.emit('invoice.payment_failed', invoice);
    return invoice;
  }

  private close(id: string, status: 'void' | 'uncollectible', event: InvoiceEventType): Stripe.Invoice {
    const invoice = this.invoice(id);
    if (invoice.status !== 'open' && !(status === 'void' && invoice.status === 'uncollectible'))
      throw new StripeError(400, 'invalid_request_error', `Invoice is ${invoice.status}.`, 'invoice_not_open');
    invoice.status = status;
    if (status === 'void') invoice.status_transitions.voided_at = this.seconds();
    else invoice.status_transitions.marked_uncollectible_at = this.seconds();
    this.emit(event, invoice);
    return invoice;
  }

  private createCreditNote(body: Record<string, FormValue>): Stripe.CreditNote {
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
      invoice.status_transitions.paid_at = this.seconds();
    }
    const id = this.newId('cn');
    const note: Stripe.CreditNote = {
      id,
      object: 'credit_note',
      amount,
      amount_shipping: 0,
      created: this.seconds(),
      currency: 'usd',
      customer: String(invoice.customer),
      customer_account: null,
      customer_balance_transaction: null,
      discount_amount: 0,
      discount_amounts: [],
      effective_at: this.seconds(),
      invoice: invoice.id,
      lines: { object: 'list', data: [], has_more: false, url: `/v1/credit_notes/${id}/lines` },
      livemode: false,
      memo: text(body.memo) ?? null,
      metadata: record(body.metadata),
      number: `${invoice.number}-CN-${String(this.creditNotesOf(invoice.id).length + 1).padStart(2, '0')}`,
      out_of_band_amount: null,
      pdf: `${this.options.baseUrl()}/hosted/credit_notes/${id}/pdf`,
      post_payment_amount: postPayment,
      pre_payment_amount: prePayment,
      pretax_credit_amounts: [],
      reason: null,
      refunds: [],
      shipping_cost: null,
      status: 'issued',
      subtotal: amount,
      subtotal_excluding_tax: amount,
      total: amount,
      total_excluding_tax: amount,
      total_taxes: [],
      type: prePayment > 0 ? 'pre_payment' : 'post_payment',
      voided_at: null,
    };
    this.creditNotes.set(id, note);
    this.emitEvent({ type: 'credit_note.created', object: note });
    return note;
  }

  private creditNotesOf(invoiceId: string): Stripe.CreditNote[] {
    return [...this.creditNotes.values()].filter((note) => note.invoice === invoiceId);
  }

  private listCreditNotes(query: Record<string, FormValue>): Stripe.ApiList<Stripe.CreditNote> {
    const invoice = text(query.invoice);
    const data = [...this.creditNotes.values()].filter((note) => invoice === undefined || note.invoice === invoice);
    return { object: 'list', data: data.reverse(), has_more: false, url: '/v1/credit_notes' };
  }

  private createEndpoint(body: Record<string, FormValue>): {
    id: string;
    object: 'webhook_endpoint';
    url: string;
    secret: string;
  } {
    const url = text(body.url);
    if (!url) throw new StripeError(400, 'invalid_request_error', 'Missing required param: url.', 'parameter_missing');
    const endpoint = { id: this.newId('we'), url, secret: `whsec_${randomBytes(24).toString('hex')}` };
    this.endpoints.set(endpoint.id, endpoint);
    return { ...endpoint, object: 'webhook_endpoint' };
  }

  /**
   * The stand-in's own triggers for what Stripe does on its own clock or the buyer's bank
   * decides: `POST /stand-in/invoices/{id}/overdue` and `…/payment_failed`.
   */
  private trigger(method: string, path: string): Stripe.Invoice {
    const match = /^\/stand-in\/invoices\/(in_[A-Za-z0-9]+)\/(overdue|payment_failed)$/.exec(path);
    if (method !== 'POST' || !match?.[1])
      throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    return match[2] === 'overdue' ? this.markOverdue(match[1]) : this.failPayment(match[1]);
  }

  private async hosted(method: string, path: string, res: ServerResponse): Promise<void> {
    const [, , , id = '', action] = path.split('/');
    const invoice = this.invoices.get(id);
    if (!invoice || invoice.status === 'draft')
      return send(res, 404, { error: { type: 'invalid_request_error', message: 'No such invoice' } });
    if (method === 'POST' && action === 'pay') {
      if (invoice.status === 'open') this.pay(id);
      res.writeHead(303, { Location: `/hosted/invoices/${id}` }).end();
      return;
    }
    if (method === 'GET' && action === 'pdf') {
      const lines = [
        ...invoice.lines.data.map((line) => `${line.description ?? ''}   ${formatUsd(line.amount)}`),
        '',
        `Total ${formatUsd(invoice.total)}   Amount due ${formatUsd(invoice.amount_remaining)}`,
        ...(invoice.custom_fields ?? []).map((field) => `${field.name}: ${field.value}`),
      ];
      const pdf = invoicePdf(`Invoice ${invoice.number ?? id}`, lines);
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': pdf.length }).end(pdf);
      return;
    }
    if (method === 'GET' && action === undefined) {
      const html = hostedInvoicePage(invoice, `/hosted/invoices/${id}/pay`);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    send(res, 404, { error: { type: 'invalid_request_error', message: 'Not found' } });
  }

  private emit(type: InvoiceEventType, invoice: Stripe.Invoice): void {
    this.emitEvent({ type, object: invoice });
  }

  /** One Stripe.Event, signed per endpoint with the SDK's own test header, sent to every registered endpoint. */
  private emitEvent(event: {
    type: InvoiceEventType | 'credit_note.created';
    object: Stripe.Invoice | Stripe.CreditNote;
  }): void {
    const payload = {
      id: this.newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.seconds(),
      data: { object: structuredClone(event.object) },
      livemode: false,
      pending_webhooks: this.endpoints.size,
      request: { id: null, idempotency_key: null },
      type: event.type,
    } as Stripe.Event;
    const body = JSON.stringify(payload);
    for (const endpoint of this.endpoints.values()) {
      const signature = sdk.webhooks.generateTestHeaderString({ payload: body, secret: endpoint.secret });
      const delivery = (this.options.deliver ?? postEvent)(endpoint.url, body, signature)
        .catch(() => undefined)
        .finally(() => this.pendingDeliveries.delete(delivery));
      this.pendingDeliveries.add(delivery);
    }
  }

  private seconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  private newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString('hex')}`;
  }
}

async function postEvent(url: string, body: string, signature: string): Promise<void> {
  await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res
    .writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(json),
      'Request-Id': `req_${randomBytes(8).toString('hex')}`,
      ...headers,
    })
    .end(json);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
