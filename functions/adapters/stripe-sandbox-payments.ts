import type Stripe from 'stripe';
import type { SandboxPaymentProvider } from '../domain/billing/sandbox-invoices';
import { InvoiceNotOpen, InvoiceUnknownToProvider, SandboxActionUnsupported } from '../domain/errors';

/** Stripe's codes for an invoice that can no longer be paid (it was paid, voided or written off meanwhile). */
const NOT_OPEN_CODES = new Set(['invoice_not_open', 'invoice_already_paid', 'invoice_payment_intent_requires_action']);

/**
 * The sandbox's payments through Stripe. Paying is `invoices.pay` with `paid_out_of_band`
 * (test mode has no bank to move money): Stripe marks it paid and sends `invoice.paid`.
 * Stripe cannot make a finalized invoice fall due early (its due date is fixed and only a
 * test clock advances time, on customers created with one), so on Stripe itself overdue
 * is SandboxActionUnsupported (501); the local stand-in has its own trigger for it.
 */
export class StripeSandboxPayments implements SandboxPaymentProvider {
  constructor(
    private readonly stripe: () => Promise<Stripe>,
    /** The local Stripe stand-in, which can make an invoice fall overdue now. */
    private readonly onStandIn: boolean,
  ) {}

  async pay(providerInvoiceId: string): Promise<void> {
    const stripe = await this.stripe();
    await refusalsOf(providerInvoiceId, () => stripe.invoices.pay(providerInvoiceId, { paid_out_of_band: true }));
  }

  async markOverdue(providerInvoiceId: string): Promise<void> {
    if (!this.onStandIn) throw new SandboxActionUnsupported('Stripe test mode cannot make an invoice fall due early');
    const stripe = await this.stripe();
    await refusalsOf(providerInvoiceId, () =>
      stripe.rawRequest('POST', `/stand-in/invoices/${encodeURIComponent(providerInvoiceId)}/overdue`, {}),
    );
  }
}

/**
 * Stripe's refusals as the domain's: an invoice paid, voided or written off meanwhile (a
 * `pay` and an `overdue` racing) is not open; one Stripe does not hold is unknown to it.
 */
async function refusalsOf(providerInvoiceId: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_OPEN_CODES.has(code)) throw new InvoiceNotOpen(providerInvoiceId, 'not open');
    if (code === 'resource_missing') throw new InvoiceUnknownToProvider(providerInvoiceId);
    throw error;
  }
}
