import type { InvoiceRecord, InvoiceStatus } from './invoice';

export const DEFAULT_INVOICE_PAGE_SIZE = 20;
export const MAX_INVOICE_PAGE_SIZE = 100;

export interface InvoicePageRequest {
  /** 1-100. */
  readonly limit: number;
  /**
   * The page starts after this invoice of the same organization (the last one of the
   * previous page); an unknown invoice, or another organization's, throws
   * ValidationFailed on `starting_after`.
   */
  readonly startingAfter?: string;
  readonly status?: InvoiceStatus;
}

export interface InvoicePage {
  readonly invoices: InvoiceRecord[];
  readonly hasMore: boolean;
}

/**
 * Storage port for invoice records (one per order, keyed by it). Every write is
 * conditional, so concurrent consumers and retries can never record two invoices for an
 * order nor lose a change.
 */
export interface InvoiceRepository {
  /**
   * Stores the order's first invoice record. If one is already there (a concurrent or
   * earlier delivery recorded it), nothing is written and the stored one is returned
   * with `created: false`.
   */
  record(invoice: InvoiceRecord): Promise<{ readonly invoice: InvoiceRecord; readonly created: boolean }>;
  /** Consistent read: the next step depends on what was just written. */
  getByOrder(orderId: string): Promise<InvoiceRecord | undefined>;
  /**
   * Replaces the record with `invoice` only if the stored version is still
   * `invoice.version - 1` (ConcurrentModification otherwise, nothing written). With
   * `stripeEventId`, the event is marked processed in the same transaction, and a second
   * processing of it is StripeEventAlreadyProcessed, nothing written.
   */
  update(invoice: InvoiceRecord, stripeEventId?: string): Promise<void>;
  /** By the invoice's own id (`inv_…`): partners and operators name invoices by it. */
  get(invoiceId: string): Promise<InvoiceRecord | undefined>;
  /**
   * The organization's invoices (its service id), newest first (issuedAt, then id,
   * descending), a page at a time, optionally of one status.
   */
  listByOrganization(organizationId: string, page: InvoicePageRequest): Promise<InvoicePage>;
  /**
   * The order's sale as recorded in the tax engine (a Stripe Tax transaction) when its invoice was issued, or
   * `undefined` before: `transactionId` is `undefined` when the engine only said the sale was recorded already.
   */
  taxTransactionOf(orderId: string): Promise<{ readonly transactionId?: string } | undefined>;
  /** Notes the order's sale recorded (once: a second note changes nothing). */
  recordTaxTransaction(orderId: string, transactionId: string | undefined): Promise<void>;
  /** Marks a Stripe event processed that changed nothing; false when it already was. */
  markEventProcessed(stripeEventId: string): Promise<boolean>;
}
