/** Invoices: issuing them from shipped orders, crediting refunds, and the partner's reads. */
import { DomainError } from './domain-error';

/** A refund of an order whose invoice is not recorded yet: its credit note waits (the message is retried). */
export class InvoiceNotIssuedYet extends DomainError {
  override readonly name = 'InvoiceNotIssuedYet';
  constructor(readonly orderId: string) {
    super(`Order ${orderId} has no invoice yet`);
  }
}

/** No invoice with this id is the caller's (none at all, or another partner's: the same answer). */
export class InvoiceNotFound extends DomainError {
  override readonly name = 'InvoiceNotFound';
  constructor(readonly invoiceId: string) {
    super(`No invoice ${invoiceId}`);
  }
}

/** A sandbox payment or due date on an invoice that is no longer open (paid, void or uncollectible). */
export class InvoiceNotOpen extends DomainError {
  override readonly name = 'InvoiceNotOpen';
  constructor(
    readonly invoiceId: string,
    readonly status: string,
  ) {
    super(`Invoice ${invoiceId} is ${status}; only an open or overdue invoice can be paid or fall overdue`);
  }
}

/** The payment provider holds no invoice by the record's provider id (a sandbox account reset, a local stand-in's data removed). */
export class InvoiceUnknownToProvider extends DomainError {
  override readonly name = 'InvoiceUnknownToProvider';
  constructor(readonly invoiceId: string) {
    super(`Stripe holds no invoice for ${invoiceId}; nothing was sent`);
  }
}

/** The payment provider's invoice does not add up to the order's total: it is left a draft, never sent. */
export class InvoiceTotalMismatch extends DomainError {
  override readonly name = 'InvoiceTotalMismatch';
  constructor(
    readonly orderId: string,
    readonly invoiceTotalCents: number,
    readonly orderTotalCents: number,
  ) {
    super(`The invoice of order ${orderId} totals ${invoiceTotalCents} cents, the order ${orderTotalCents}`);
  }
}

/** A Stripe event whose id was processed before: it changes nothing a second time. */
export class StripeEventAlreadyProcessed extends DomainError {
  override readonly name = 'StripeEventAlreadyProcessed';
  constructor(readonly eventId: string) {
    super(`Stripe event ${eventId} was already processed`);
  }
}

/** A sandbox action the payment provider cannot perform on this stack (Stripe test mode cannot force a due date). */
export class SandboxActionUnsupported extends DomainError {
  override readonly name = 'SandboxActionUnsupported';
}
