import { InvoiceNotFound, OrganizationNotFound, ValidationFailed } from '../errors';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { InvoiceRecord, InvoiceStatus } from './invoice';
import {
  DEFAULT_INVOICE_PAGE_SIZE,
  MAX_INVOICE_PAGE_SIZE,
  type InvoicePage,
  type InvoicePageRequest,
  type InvoiceRepository,
} from './invoice-repository';

/** How many of an organization's newest invoices a search reads (a page of results says so past that). */
export const MAX_INVOICES_SEARCHED = 500;

export interface InvoiceListQuery {
  /** The partner's id of the organization. */
  readonly internalOrgId: string;
  readonly status?: InvoiceStatus;
  /** Only this order's invoice (a page of one, or of none). */
  readonly orderId?: string;
  readonly limit?: number;
  readonly startingAfter?: string;
}

/**
 * The invoices a partner, a buyer or an operator reads (`GET /v1/invoices`, the order
 * page, the module's Invoices page, `ops invoices`): always within one partner, so
 * another partner's invoice is no invoice at all (InvoiceNotFound, never Forbidden: its
 * existence is not told).
 */
export class PartnerInvoices {
  constructor(
    private readonly invoices: Pick<InvoiceRepository, 'get' | 'getByOrder' | 'listByOrganization'>,
    private readonly organizations: Pick<OrganizationRepository, 'getOrganization'>,
  ) {}

  async get(invoiceId: string, partnerId: PartnerId): Promise<InvoiceRecord> {
    const invoice = await this.invoices.get(invoiceId);
    if (invoice?.partnerId !== partnerId) throw new InvoiceNotFound(invoiceId);
    return invoice;
  }

  /** The order's invoice, `undefined` until one is issued (the order is already known to be the caller's). */
  forOrder(orderId: string): Promise<InvoiceRecord | undefined> {
    return this.invoices.getByOrder(orderId);
  }

  /**
   * The organization's invoices (its service id, from the session: the module's user is
   * of that organization already), newest first, a page at a time.
   */
  ofOrganization(organizationId: string, page: InvoicePageRequest): Promise<InvoicePage> {
    return this.invoices.listByOrganization(organizationId, page);
  }

  /**
   * The organization's invoices whose number or PO number contains `text` (any case), newest
   * first, among its newest MAX_INVOICES_SEARCHED; `complete` is false when it has more.
   */
  async search(
    organizationId: string,
    text: string,
  ): Promise<{ readonly invoices: InvoiceRecord[]; readonly complete: boolean }> {
    const needle = text.trim().toLowerCase();
    const found: InvoiceRecord[] = [];
    let read = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.invoices.listByOrganization(organizationId, {
        limit: MAX_INVOICE_PAGE_SIZE,
        ...(after === undefined ? {} : { startingAfter: after }),
      });
      read += page.invoices.length;
      found.push(
        ...page.invoices.filter(
          (invoice) =>
            invoice.number.toLowerCase().includes(needle) || (invoice.poNumber ?? '').toLowerCase().includes(needle),
        ),
      );
      after = page.invoices.at(-1)?.id;
      if (!page.hasMore || after === undefined) return { invoices: found, complete: true };
      if (read >= MAX_INVOICES_SEARCHED) return { invoices: found, complete: false };
    }
  }

  async list(partnerId: PartnerId, query: InvoiceListQuery): Promise<InvoicePage> {
    const aggregate = await this.organizations.getOrganization(partnerId, query.internalOrgId);
    if (!aggregate) throw new OrganizationNotFound(partnerId, query.internalOrgId);
    const { organization } = aggregate;
    const limit = query.limit ?? DEFAULT_INVOICE_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_INVOICE_PAGE_SIZE)
      throw new ValidationFailed([
        {
          code: limit < 1 ? 'TOO_SMALL' : 'TOO_BIG',
          message: `limit must be an integer from 1 to ${MAX_INVOICE_PAGE_SIZE}`,
          path: ['limit'],
        },
      ]);
    if (query.orderId !== undefined) {
      if (query.startingAfter !== undefined)
        throw new ValidationFailed([
          {
            code: 'CONFLICTING_FIELDS',
            message: 'an order has one invoice: there is no page after it',
            path: ['starting_after'],
          },
        ]);
      const invoice = await this.invoices.getByOrder(query.orderId);
      const matches =
        invoice?.organizationId === organization.id && (query.status === undefined || invoice.status === query.status);
      return { invoices: matches ? [invoice] : [], hasMore: false };
    }
    return this.invoices.listByOrganization(organization.id, {
      limit,
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.startingAfter === undefined ? {} : { startingAfter: query.startingAfter }),
    });
  }
}
