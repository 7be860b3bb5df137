/** The SDK-typed objects the stand-in makes, with the defaults Stripe gives a new one, and their ids. */
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { type FormValue, list, record, text } from './stripe-form-body';
import { STAND_IN_SELLER } from './stripe-stand-in-account';

export const stripeId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A new draft invoice: no lines, nothing due, no number until it is finalized. */
export function draftInvoice({
  id,
  customer,
  collection,
  created,
  body,
}: {
  readonly id: string;
  readonly customer: string;
  readonly collection: 'send_invoice' | 'charge_automatically';
  readonly created: number;
  readonly body: Record<string, FormValue>;
}): Stripe.Invoice {
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: STAND_IN_SELLER.name,
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
}

/** A credit note issued on a finalized invoice: `prePayment` of its amount came off what was still due. */
export function issuedCreditNote(input: {
  readonly id: string;
  readonly invoice: Stripe.Invoice;
  readonly amount: number;
  readonly prePayment: number;
  readonly at: number;
  readonly number: string;
  readonly pdf: string;
  readonly body: Record<string, FormValue>;
}): Stripe.CreditNote {
  const { id, amount } = input;
  return {
    id,
    object: 'credit_note',
    amount,
    amount_shipping: 0,
    created: input.at,
    currency: 'usd',
    customer: String(input.invoice.customer),
    customer_account: null,
    customer_balance_transaction: null,
    discount_amount: 0,
    discount_amounts: [],
    effective_at: input.at,
    invoice: input.invoice.id,
    lines: { object: 'list', data: [], has_more: false, url: `/v1/credit_notes/${id}/lines` },
    livemode: false,
    memo: text(input.body.memo) ?? null,
    metadata: record(input.body.metadata),
    number: input.number,
    out_of_band_amount: null,
    pdf: input.pdf,
    post_payment_amount: input.amount - input.prePayment,
    pre_payment_amount: input.prePayment,
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
    type: input.prePayment > 0 ? 'pre_payment' : 'post_payment',
    voided_at: null,
  };
}
