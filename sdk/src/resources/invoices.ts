import type { Invoice, InvoiceList } from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';

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
