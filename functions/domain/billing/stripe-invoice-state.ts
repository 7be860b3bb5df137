import { type InvoiceEventState, InvoiceRecord, type InvoiceStatus } from './invoice';
import type { ProviderInvoice } from './invoicing-provider';

/** The invoice event kinds that change an invoice record; any other kind is answered and ignored. */
export const HANDLED_STRIPE_EVENTS = [
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.overdue',
  'invoice.voided',
  'invoice.marked_uncollectible',
] as const;
export type HandledKind = (typeof HANDLED_STRIPE_EVENTS)[number];

/** Why a verified event changes nothing: logged with the event id, never stored. */
export type IgnoredReason =
  | 'kind_not_followed'
  | 'not_an_order_of_ours'
  | 'another_invoice'
  | 'unknown_to_stripe'
  | 'still_a_draft'
  | 'total_differs'
  | 'transition_not_allowed'
  | 'amounts_invalid';

/**
 * Stripe's own transitions: an open invoice (overdue is open past its due date) can become
 * anything; an uncollectible one can still be paid or voided; paid and void are final.
 */
const NEXT: Readonly<Record<InvoiceStatus, ReadonlySet<InvoiceStatus>>> = {
  open: new Set(['open', 'overdue', 'paid', 'void', 'uncollectible']),
  overdue: new Set(['open', 'overdue', 'paid', 'void', 'uncollectible']),
  uncollectible: new Set(['uncollectible', 'paid', 'void']),
  paid: new Set(['paid']),
  void: new Set(['void']),
};

const transitionAllowed = (from: InvoiceStatus, to: InvoiceStatus): boolean => NEXT[from].has(to);

/**
 * The invoice's state as Stripe holds it now (fetched on each event, as Stripe advises,
 * so the order events arrive in does not matter), or why it cannot be the record's.
 * Stripe's `open` is `overdue` once Stripe reported it overdue.
 */
export function stateFromStripe(
  kind: HandledKind,
  created: number,
  stripe: ProviderInvoice,
  record: InvoiceRecord,
): InvoiceEventState | IgnoredReason {
  if (stripe.status === 'draft') return 'still_a_draft';
  if (stripe.totalCents !== record.totalCents) return 'total_differs';
  // Stripe's own `invoice.overdue` says when its due date passed; the service's clock does not guess it.
  const status: InvoiceStatus =
    stripe.status === 'open' && (kind === 'invoice.overdue' || record.status === 'overdue') ? 'overdue' : stripe.status;
  if (!transitionAllowed(record.status, status)) return 'transition_not_allowed';
  return {
    created,
    status,
    amountPaidCents: stripe.amountPaidCents,
    amountDueCents: stripe.amountRemainingCents,
    ...(stripe.dueDate ? { dueDate: stripe.dueDate } : {}),
    ...(kind === 'invoice.payment_failed' ? { paymentFailedAt: new Date(created * 1000).toISOString() } : {}),
  };
}

/**
 * Whether a record is fit to store: its own schema (integer, non-negative cents, dates),
 * and money that adds up (nothing paid or due beyond the total, nothing due beyond what
 * credit notes left). A record that fails is never written.
 */
export function invoiceRecordFits(record: InvoiceRecord): boolean {
  if (!InvoiceRecord.safeParse(record).success) return false;
  const { totalCents, amountPaidCents, amountDueCents, amountCreditedCents } = record;
  return amountPaidCents + amountDueCents <= totalCents && amountDueCents <= totalCents - amountCreditedCents;
}
