// Project-owned stand-in for the Stripe Invoicing endpoints the service calls: stripe-stateful-mock has no invoices,
// invoice items, credit notes or events, and no npm package serves them. It answers the real `stripe` SDK with
// objects typed as the SDK's own (`Stripe.Invoice`, `Stripe.CreditNote`, `Stripe.Event`), serves the hosted invoice
// page and its PDF, and sends signed events (the SDK's `generateTestHeaderString`) to the webhook endpoints registered
// with it. Deliberately narrow (docs/decisions.md): what it does not serve it refuses with Stripe's 404 shape.
// This file is its HTTP face (routes, Idempotency-Key replay, the hosted page and PDF); the invoices and credit
// notes live in stripe-invoice-store.ts, the endpoints and signed events in stripe-event-sender.ts.
import { createHash } from 'node:crypto';
import { get as httpGet, type IncomingMessage, type ServerResponse } from 'node:http';
import { readRequestText, sendStripeJson } from './stripe-stand-in-http';
import type Stripe from 'stripe';
import { hostedInvoicePage } from './stripe-hosted-invoice-page';
import { invoicePdf } from './stripe-invoice-pdf';
import { StripeError } from './stripe-error';
import { StripeEventSender } from './stripe-event-sender';
import { type FormValue, parseStripeForm } from './stripe-form-body';
import { type InvoiceStoreSnapshot, StripeInvoiceStore } from './stripe-invoice-store';
import type { StandInStateFile } from './stripe-stand-in-state';
import { invoiceDocument } from './stripe-invoice-document';
import { STAND_IN_SELLER } from './stripe-stand-in-account';

export interface StripeInvoicingStandInOptions {
  /** Where the stand-in itself is reached (hosted pages and PDFs link to it). */
  readonly baseUrl: () => string;
  /** Injected so tests control `created`, due dates and event times. */
  readonly now?: () => Date;
  /** Delivers a signed event; the default POSTs it. Tests may capture instead. */
  readonly deliver?: (url: string, body: string, signature: string) => Promise<void>;
  /** Where invoices and credit notes are kept across restarts; in memory only when absent. */
  readonly stateFile?: StandInStateFile;
}

/** Paths this stand-in answers; everything else on the port is stripe-stateful-mock's. */
export const servesStripePath = (path: string): boolean =>
  /^\/v1\/(invoices|credit_notes|webhook_endpoints)(\/|$|\?)/.test(path) || /^\/(hosted|stand-in)\//.test(path);

export class StripeInvoicingStandIn {
  private readonly store: StripeInvoiceStore;
  private readonly events: StripeEventSender;
  /** Idempotency-Key → the request it came with and the answer given. */
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  private readonly stateFile: StandInStateFile | undefined;
  private readonly baseUrl: () => string;

  constructor(options: StripeInvoicingStandInOptions) {
    this.stateFile = options.stateFile;
    this.baseUrl = options.baseUrl;
    const now = options.now ?? (() => new Date());
    const seconds = () => Math.floor(now().getTime() / 1000);
    this.events = new StripeEventSender({ seconds, ...(options.deliver ? { deliver: options.deliver } : {}) });
    this.store = new StripeInvoiceStore({
      baseUrl: options.baseUrl,
      seconds,
      emit: (event) => this.events.send(event),
    });
    const saved = this.stateFile?.read().kinds.invoices;
    if (saved) this.store.restore(saved as InvoiceStoreSnapshot);
  }

  /** Writes the invoices and credit notes down after a change (the webhook endpoints are registered anew by each stack). */
  private persist(): void {
    if (!this.stateFile) return;
    const state = this.stateFile.read();
    this.stateFile.write({ ...state, kinds: { ...state.kinds, invoices: this.store.snapshot() } });
  }

  /** Waits for every event sent so far to be delivered (or to fail). */
  async settled(): Promise<void> {
    await this.events.settled();
  }

  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = req.method === 'POST' ? parseStripeForm(await readRequestText(req)) : {};
      const query = parseStripeForm(url.search.slice(1));
      if (req.method === 'POST') res.once('finish', () => this.persist());
      if (url.pathname.startsWith('/hosted/')) return await this.hosted(req.method ?? 'GET', url.pathname, res);
      if (url.pathname.startsWith('/stand-in/'))
        return sendStripeJson(res, 200, this.trigger(req.method ?? 'GET', url.pathname));
      const key = req.headers['idempotency-key'];
      const answer = () => this.api(req.method ?? 'GET', url.pathname, body, query, req.headers.authorization);
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
        if (stored) return sendStripeJson(res, stored.status, stored.body, { 'Idempotent-Replayed': 'true' });
        const result = await answer();
        this.idempotent.set(key, { fingerprint, status: 200, body: result });
        return sendStripeJson(res, 200, result);
      }
      return sendStripeJson(res, 200, await answer());
    } catch (error) {
      if (error instanceof StripeError)
        return sendStripeJson(res, error.status, {
          error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}) },
        });
      return sendStripeJson(res, 500, { error: { type: 'api_error', message: String(error) } });
    }
  };

  private async api(
    method: string,
    path: string,
    body: Record<string, FormValue>,
    query: Record<string, FormValue>,
    authorization: string | undefined,
  ): Promise<unknown> {
    // Stripe's own paths (not our route table's): the method, then the path with its object id as `:id`.
    const shape = path.replace(/\/(in|cn|we)_[A-Za-z0-9]+/g, '/:id');
    const id = /\/((in|cn|we)_[A-Za-z0-9]+)/.exec(path)?.[1] ?? '';
    const served: Readonly<Record<string, Partial<Record<string, () => unknown>>>> = {
      '/v1/invoices': { POST: () => this.store.createInvoice(body), GET: () => this.store.listInvoices(query) },
      '/v1/invoices/:id': { GET: () => this.store.invoice(id) },
      '/v1/invoices/:id/add_lines': { POST: () => this.store.addLines(id, body) },
      '/v1/invoices/:id/finalize': {
        POST: async () => this.store.finalize(id, await this.customer(this.store.invoice(id), authorization)),
      },
      '/v1/invoices/:id/pay': { POST: () => this.store.pay(id) },
      '/v1/invoices/:id/void': { POST: () => this.store.close(id, 'void', 'invoice.voided') },
      '/v1/invoices/:id/mark_uncollectible': {
        POST: () => this.store.close(id, 'uncollectible', 'invoice.marked_uncollectible'),
      },
      '/v1/credit_notes': {
        POST: () => this.store.createCreditNote(body),
        GET: () => this.store.listCreditNotes(query),
      },
      '/v1/webhook_endpoints': { POST: () => this.events.createEndpoint(body) },
    };
    const methods = Object.hasOwn(served, shape) ? served[shape] : undefined;
    const run = methods && Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!run) throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    return run();
  }

  /**
   * The invoice's customer as stripe-stateful-mock holds it (same port, same key), for the
   * name, e-mail and address finalization copies onto the invoice; none if it cannot say.
   */
  private async customer(invoice: Stripe.Invoice, authorization: string | undefined) {
    if (invoice.status !== 'draft' || typeof invoice.customer !== 'string') return undefined;
    const url = `${this.baseUrl()}/v1/customers/${encodeURIComponent(invoice.customer)}`;
    // A connection of its own, closed after: a pooled one would outlive a restart of the stand-in in the same process.
    return new Promise<Stripe.Customer | undefined>((done) => {
      const request = httpGet(url, { agent: false, headers: authorization ? { Authorization: authorization } : {} });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            done(
              response.statusCode === 200
                ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Stripe.Customer)
                : undefined,
            );
          } catch {
            done(undefined);
          }
        });
      });
      request.on('error', () => done(undefined));
    });
  }

  /**
   * The stand-in's own triggers for what Stripe does on its own clock or the buyer's bank
   * decides: `POST /stand-in/invoices/{id}/overdue` and `…/payment_failed`.
   */
  private trigger(method: string, path: string): Stripe.Invoice {
    const match = /^\/stand-in\/invoices\/(in_[A-Za-z0-9]+)\/(overdue|payment_failed)$/.exec(path);
    if (method !== 'POST' || !match?.[1])
      throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    return match[2] === 'overdue' ? this.store.markOverdue(match[1]) : this.store.failPayment(match[1]);
  }

  private async hosted(method: string, path: string, res: ServerResponse): Promise<void> {
    const [, , , id = '', action] = path.split('/');
    const invoice = this.store.hostedInvoice(id);
    if (!invoice)
      return sendStripeJson(res, 404, { error: { type: 'invalid_request_error', message: 'No such invoice' } });
    if (method === 'POST' && action === 'pay') {
      if (invoice.status === 'open') this.store.pay(id);
      res.writeHead(303, { Location: `/hosted/invoices/${id}` }).end();
      return;
    }
    const document = invoiceDocument({
      invoice,
      creditNotes: this.store.creditNotesOf(id),
      daysUntilDue: this.store.daysUntilDueOf(id),
      seller: STAND_IN_SELLER,
    });
    if (method === 'GET' && action === 'pdf') {
      const pdf = await invoicePdf(document);
      // Saved under the invoice's number, as the module's "Download PDF" says (docs/billing.md).
      res
        .writeHead(200, {
          'Content-Type': 'application/pdf',
          'Content-Length': pdf.length,
          'Content-Disposition': `attachment; filename="${document.number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`,
        })
        .end(pdf);
      return;
    }
    if (method === 'GET' && action === undefined) {
      const html = hostedInvoicePage(document, {
        pay: `/hosted/invoices/${id}/pay`,
        pdf: `/hosted/invoices/${id}/pdf`,
      });
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    sendStripeJson(res, 404, { error: { type: 'invalid_request_error', message: 'Not found' } });
  }
}
