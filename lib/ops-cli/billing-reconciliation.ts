/**
 * One month's books checked three ways: the orders shipped in the month (UTC), the
 * service's invoice records and credit notes, and Stripe's invoices and credit notes.
 * Each disagreement is a mismatch saying what to do; `fix` issues what is missing
 * (invoices, credit notes) through the invoicing consumer's own idempotent path.
 */
import { addMonths, formatISO, parseISO } from 'date-fns';
import type Stripe from 'stripe';
import type { Dependencies } from '../../functions/container';
import { stripeClientSource } from '../../functions/adapters/stripe-client';
import type { InvoiceRecord } from '../../functions/domain/billing/invoice';
import { addCalendarDays } from '../../functions/domain/calendar-days';
import { formatUsd } from '../../functions/domain/money';
import type { Order } from '../../functions/domain/orders/order';

type Deps = Pick<Dependencies, 'partners' | 'organizations' | 'orders' | 'functions' | 'config' | 'aws'>;

interface Mismatch {
  readonly kind:
    | 'invoice-missing'
    | 'credit-note-missing'
    | 'stripe-invoice-missing'
    | 'stripe-duplicate-invoice'
    | 'total'
    | 'tax'
    | 'status'
    | 'amount-paid'
    | 'amount-credited';
  readonly orderId: string;
  readonly invoiceId?: string;
  readonly detail: string;
  /** What the operator does about it. */
  readonly action: string;
  /** `--fix` issued what was missing. */
  readonly fixed?: boolean;
}

export interface Reconciliation {
  readonly month: string;
  readonly shippedOrders: number;
  readonly invoices: number;
  readonly mismatches: Mismatch[];
}

/** An order shipped in a month was placed at most this long before it (the orders are listed by placement). */
const PLACED_BEFORE_SHIPMENT_DAYS = 90;
/** The invoice line that carries the order's sales tax (invoicing-service.ts). */
const TAX_LINE = 'Sales tax';

/** The month's UTC instants [from, to), and the first day whose placements it reads. */
const monthRange = (month: string) => {
  const first = `${month}-01`;
  const next = formatISO(addMonths(parseISO(first), 1), { representation: 'date' });
  return {
    from: `${first}T00:00:00.000Z`,
    to: `${next}T00:00:00.000Z`,
    placedFrom: `${addCalendarDays(first, -PLACED_BEFORE_SHIPMENT_DAYS)}T00:00:00.000Z`,
  };
};

/** Stripe's `open` is the service's `open` or `overdue` (Stripe's `invoice.overdue` leaves it open). */
const sameStatus = (service: InvoiceRecord['status'], stripe: Stripe.Invoice['status']) =>
  service === stripe || (service === 'overdue' && stripe === 'open');

export async function reconcileMonth(
  deps: Deps,
  options: { readonly month: string; readonly fix: boolean },
): Promise<Reconciliation> {
  const range = monthRange(options.month);
  const stripe = await stripeClientSource(deps.config, deps.aws.secrets)();
  const { invoices, invoicing } = deps.functions.invoicing;
  const mismatches: Mismatch[] = [];
  let shippedOrders = 0;
  let invoiceCount = 0;

  for (const partner of await deps.partners.listPartners()) {
    for (const organization of await deps.organizations.listOrganizations(partner.id)) {
      const { orders } = await deps.orders.listCreatedBetween(organization.id, {
        from: range.placedFrom,
        to: range.to,
        maxOrders: 100_000,
      });
      const shipped = orders.filter(
        (order) => order.shipment && order.shipment.shippedAt >= range.from && order.shipment.shippedAt < range.to,
      );
      if (shipped.length === 0) continue;
      const stripeInvoices = await customerInvoices(stripe, organization.paymentCustomerId);
      for (const order of shipped) {
        shippedOrders += 1;
        const ofOrder = stripeInvoices.filter((invoice) => invoice.metadata?.orderId === order.id);
        const record = await invoices.getByOrder(order.id);
        if (!record) {
          const fixed = options.fix ? await invoicing.issue(order.id).then(() => true) : undefined;
          mismatches.push({
            kind: 'invoice-missing',
            orderId: order.id,
            detail: `shipped ${order.shipment?.shippedAt} for ${formatUsd(order.totalCents)} and has no invoice`,
            action: `run with --fix, or: npm run ops -- invoices reissue --order ${order.id}`,
            ...(fixed ? { fixed } : {}),
          });
          continue;
        }
        invoiceCount += 1;
        mismatches.push(...(await compareInvoice(stripe, order, record, ofOrder)));
        mismatches.push(...(await missingCreditNotes(deps, order, record, options.fix)));
      }
    }
  }
  return { month: options.month, shippedOrders, invoices: invoiceCount, mismatches };
}

async function customerInvoices(stripe: Stripe, customer: string): Promise<Stripe.Invoice[]> {
  const found: Stripe.Invoice[] = [];
  for await (const invoice of stripe.invoices.list({ customer, limit: 100 })) found.push(invoice);
  return found;
}

async function compareInvoice(
  stripe: Stripe,
  order: Order,
  record: InvoiceRecord,
  ofOrder: readonly Stripe.Invoice[],
): Promise<Mismatch[]> {
  const at = { orderId: order.id, invoiceId: record.id };
  const found: Mismatch[] = [];
  for (const other of ofOrder.filter((invoice) => invoice.id !== record.stripeInvoiceId && invoice.status !== 'void'))
    found.push({
      ...at,
      kind: 'stripe-duplicate-invoice',
      detail: `Stripe holds a second invoice ${other.id} (${other.status}) for the order besides ${record.stripeInvoiceId}`,
      action: `void ${other.id} in Stripe's dashboard (the service bills ${record.stripeInvoiceId})`,
    });
  const invoice = await stripe.invoices.retrieve(record.stripeInvoiceId).catch((error: { statusCode?: number }) => {
    if (error.statusCode === 404) return undefined;
    throw error;
  });
  if (!invoice)
    return [
      ...found,
      {
        ...at,
        kind: 'stripe-invoice-missing',
        detail: `Stripe has no invoice ${record.stripeInvoiceId}, which the service recorded`,
        action: 'check the Stripe account the stage uses (its secret key); the service record names another account',
      },
    ];
  if (record.totalCents !== order.totalCents || invoice.total !== order.totalCents)
    found.push({
      ...at,
      kind: 'total',
      detail: `order ${formatUsd(order.totalCents)}, service invoice ${formatUsd(record.totalCents)}, Stripe ${formatUsd(invoice.total)}`,
      action: 'void the Stripe invoice and issue a credit note or a new invoice for the difference; report it',
    });
  const stripeTax = invoice.lines.data
    .filter((line) => line.description === TAX_LINE)
    .reduce((sum, line) => sum + line.amount, 0);
  if (stripeTax !== order.taxCents)
    found.push({
      ...at,
      kind: 'tax',
      detail: `order's tax ${formatUsd(order.taxCents)}, Stripe's tax line ${formatUsd(stripeTax)}`,
      action: 'correct the tax with a credit note in Stripe; the supplier files what Stripe shows',
    });
  if (!sameStatus(record.status, invoice.status))
    found.push({
      ...at,
      kind: 'status',
      detail: `service says ${record.status}, Stripe says ${invoice.status}`,
      action: "resend Stripe's latest invoice event to the stage's Stripe endpoint (Stripe dashboard, Webhooks)",
    });
  if (record.amountPaidCents !== invoice.amount_paid)
    found.push({
      ...at,
      kind: 'amount-paid',
      detail: `service says ${formatUsd(record.amountPaidCents)} paid, Stripe ${formatUsd(invoice.amount_paid)}`,
      action: "resend Stripe's invoice.paid event to the stage's Stripe endpoint (Stripe dashboard, Webhooks)",
    });
  const notes = (await stripe.creditNotes.list({ invoice: invoice.id, limit: 100 })).data;
  const stripeCredited = notes.filter((note) => note.status !== 'void').reduce((sum, note) => sum + note.amount, 0);
  if (stripeCredited !== record.amountCreditedCents)
    found.push({
      ...at,
      kind: 'amount-credited',
      detail: `service credited ${formatUsd(record.amountCreditedCents)}, Stripe's credit notes ${formatUsd(stripeCredited)}`,
      action: "compare the credit notes of the Stripe invoice with the order's refunds (npm run ops -- invoices show)",
    });
  return found;
}

/** A refund with no credit note (and room left to credit) is a credit note to issue. */
async function missingCreditNotes(deps: Deps, order: Order, record: InvoiceRecord, fix: boolean) {
  const found: Mismatch[] = [];
  let creditable = record.totalCents - record.amountCreditedCents;
  for (const change of order.statusHistory) {
    if (change.status !== 'refunded' || creditable <= 0) continue;
    if (record.creditNotes.some((note) => note.refundSequence === change.sequence)) continue;
    creditable -= change.amountCents;
    const fixed = fix
      ? await deps.functions.invoicing.invoicing.credit(order.id, change.sequence).then(() => true)
      : undefined;
    found.push({
      kind: 'credit-note-missing',
      orderId: order.id,
      invoiceId: record.id,
      detail: `refund #${change.sequence} of ${formatUsd(change.amountCents)} has no credit note`,
      action: 'run with --fix (issues the credit note the refund should have)',
      ...(fixed ? { fixed } : {}),
    });
  }
  return found;
}
