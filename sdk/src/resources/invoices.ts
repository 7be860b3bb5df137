import type { Invoice, InvoiceList, SandboxInvoiceAccepted } from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';
import { type ChangeOptions, idempotencyKeyOf } from './organizations.js';

export interface InvoiceListParams {
  /** Your `internalOrgId`. */
  readonly internalOrgId: string;
  /** Only invoices of this status. */
  readonly status?: Invoice['status'];
  /** Only this order's invoice (at most one). */
  readonly orderId?: string;
  /** Invoices per page (the API's `limit`); the iteration fetches every page either way. */
  readonly pageSize?: number;
}

/** `GET /v1/invoices/{invoice_id}` and `GET /v1/invoices`. */
export class Invoices {
  constructor(private readonly transport: HttpTransport) {}

  retrieve(invoiceId: string): Promise<Invoice> {
    return this.transport.request<Invoice>({
      method: 'GET',
      path: `/v1/invoices/${encodeURIComponent(invoiceId)}`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  /** Every invoice of the organization, newest first, fetching page after page (`starting_after`) as you iterate. */
  async *list(params: InvoiceListParams): AsyncGenerator<Invoice, void, undefined> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.transport.request<InvoiceList>({
        method: 'GET',
        path: '/v1/invoices',
        query: {
          internal_org_id: params.internalOrgId,
          status: params.status,
          order_id: params.orderId,
          limit: params.pageSize,
          starting_after: startingAfter,
        },
        credential: 'bearer',
        retryable: 'on-failure',
      });
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || !last) return;
      startingAfter = last.id;
    }
  }
}

/**
 * The sandbox's invoice actions (production answers 404): make Stripe pay an invoice or
 * make it fall due, as a buyer's bank or the calendar would, so your CI sees `invoice.paid`
 * and `invoice.overdue`. Each resolves when Stripe was asked (202); the invoice changes
 * when Stripe's event comes back, seconds later. Each call carries an `Idempotency-Key` its
 * retries reuse, so a retry after a lost answer gets the first answer again rather than
 * `INVOICE_NOT_OPEN`.
 */
export class SandboxInvoices {
  constructor(private readonly transport: HttpTransport) {}

  /** Pays the invoice in full; `invoice.paid` follows. A paid, void or uncollectible one is `PartnerConflictError`. */
  pay(invoiceId: string, options: ChangeOptions = {}): Promise<SandboxInvoiceAccepted> {
    return this.act(invoiceId, 'pay', options);
  }

  /** Makes the invoice fall due now; `invoice.overdue` follows (the local stack only: Stripe itself answers 501). */
  overdue(invoiceId: string, options: ChangeOptions = {}): Promise<SandboxInvoiceAccepted> {
    return this.act(invoiceId, 'overdue', options);
  }

  private act(invoiceId: string, action: 'pay' | 'overdue', options: ChangeOptions): Promise<SandboxInvoiceAccepted> {
    return this.transport.request<SandboxInvoiceAccepted>({
      method: 'POST',
      path: `/v1/sandbox/invoices/${encodeURIComponent(invoiceId)}/${action}`,
      credential: 'bearer',
      body: {},
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }
}
