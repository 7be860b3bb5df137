import type { Cents } from '../money';

/** Stripe's states of an invoice; `draft` until finalized. */
type ProviderInvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

/** An invoice as the payment provider holds it. */
export interface ProviderInvoice {
  readonly id: string;
  readonly status: ProviderInvoiceStatus;
  /** Set once finalized. */
  readonly number?: string;
  /** How many lines it has: a draft with none still needs its lines. */
  readonly lineCount: number;
  readonly totalCents: Cents;
  /** Left to pay (Stripe's `amount_remaining`: credit notes and payments deducted). */
  readonly amountRemainingCents: Cents;
  readonly amountPaidCents: Cents;
  /** ISO 8601; set once finalized. */
  readonly dueDate?: string;
  /** ISO 8601; set once finalized. */
  readonly finalizedAt?: string;
  readonly hostedInvoiceUrl?: string;
  readonly invoicePdf?: string;
}

/** One line of an invoice: `quantity` × `unitAmountCents`. */
export interface InvoiceLine {
  readonly description: string;
  readonly quantity: number;
  readonly unitAmountCents: Cents;
  /** The product's SKU, for an item line. */
  readonly sku?: string;
}

/** Who an invoice belongs to, recorded on it for reconciliation (Stripe metadata). */
interface InvoiceOwner {
  readonly orderId: string;
  readonly partnerId: string;
  readonly organizationId: string;
  readonly internalOrgId: string;
  readonly environment: string;
}

export interface DraftInvoiceRequest {
  /** Derived from the order: a retried create returns the same draft. */
  readonly idempotencyKey: string;
  readonly customerId: string;
  readonly owner: InvoiceOwner;
  readonly daysUntilDue: number;
  readonly poNumber?: string;
}

export interface CreditNoteRequest {
  readonly idempotencyKey: string;
  readonly invoiceId: string;
  readonly amountCents: Cents;
  /** Recorded on the credit note (order id, refund sequence). */
  readonly metadata: Readonly<Record<string, string>>;
  readonly memo?: string;
}

export interface ProviderCreditNote {
  readonly id: string;
  readonly amountCents: Cents;
  /** ISO 8601. */
  readonly createdAt: string;
  /** Stripe's number of the note and its PDF. */
  readonly number?: string;
  readonly pdf?: string;
}

/**
 * Port to the payment provider's invoicing (Stripe Invoicing in production). Each call is
 * one step of issuing, so a failure between steps is retried from where it stopped; every
 * write carries an idempotency key derived from the order.
 */
export interface InvoicingProvider {
  /**
   * The invoice already created for the order (any state), found by its metadata: the
   * provider forgets idempotency keys after a day, the invoice's metadata stays.
   * `createdSince` (epoch seconds) bounds the search to the customer's recent invoices.
   */
  findOrderInvoice(customerId: string, orderId: string, createdSince: number): Promise<ProviderInvoice | undefined>;
  /** A draft `send_invoice` invoice, due `daysUntilDue` after finalization, with no lines yet. */
  createDraft(request: DraftInvoiceRequest): Promise<ProviderInvoice>;
  /** Adds all `lines` to the draft in one call. */
  addLines(invoiceId: string, lines: readonly InvoiceLine[], idempotencyKey: string): Promise<ProviderInvoice>;
  /** Finalizes the draft: it gets its number, hosted page and PDF, and the customer is sent it. */
  finalize(invoiceId: string, idempotencyKey: string): Promise<ProviderInvoice>;
  /** A credit note of `amountCents` against a finalized invoice. */
  createCreditNote(request: CreditNoteRequest): Promise<ProviderCreditNote>;
  /** The invoice as the provider holds it now; `undefined` when it knows no such invoice. */
  retrieve(invoiceId: string): Promise<ProviderInvoice | undefined>;
}
