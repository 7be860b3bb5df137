import { InvoiceNotFound, OrganizationNotFound, ValidationFailed } from '../errors';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { InvoiceRecord, InvoiceStatus } from './invoice';
import {
  DEFAULT_INVOICE_PAGE_SIZE,
  MAX_INVOICE_PAGE_SIZE,
  type InvoicePage,
  type InvoiceRepository,
} from './invoice-repository';

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
