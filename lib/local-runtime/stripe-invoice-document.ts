/**
 * What the stand-in's hosted invoice page and its PDF both show, as a bookkeeper files it:
 * seller, bill-to, number, issue and due dates, terms, PO number, each line's quantity and
 * unit price, subtotal, shipping, sales tax, total, credit notes, payments and what is
 * still due. Built once here so the page and the PDF never disagree.
 */
import type Stripe from 'stripe';
import { formatUsd } from '../../functions/domain/money';
import type { SellerDetails } from './stripe-stand-in-account';

/** The lines the service adds for the order's shipping and sales tax (docs/billing.md): shown in the totals. */
const SHIPPING_LINE = 'Shipping';
const SALES_TAX_LINE = 'Sales tax';

export interface InvoiceDocument {
  readonly title: string;
  readonly number: string;
  readonly status: string;
  readonly seller: SellerDetails;
  readonly billTo: { readonly name: string; readonly email: string; readonly addressLines: readonly string[] };
  /** Label and value, in order: issued, due, terms, PO number (when the invoice has one). */
  readonly facts: readonly (readonly [string, string])[];
  readonly lines: readonly {
    readonly description: string;
    readonly quantity: string;
    readonly unitPrice: string;
    readonly amount: string;
  }[];
  /** Label and amount: subtotal, shipping, sales tax, total. */
  readonly totals: readonly (readonly [string, string])[];
  /** Credit notes and payments: what came off the total, each with its date. */
  readonly credits: readonly { readonly label: string; readonly date: string; readonly amount: string }[];
  readonly payments: readonly { readonly label: string; readonly date: string; readonly amount: string }[];
  readonly amountDue: string;
}

const STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

/** Stripe's seconds as the date a US bookkeeper reads, in UTC (the stand-in account's zone). */
const invoiceDate = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined
    ? '—'
    : new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }).format(
        new Date(seconds * 1000),
      );

const addressLines = (address: Stripe.Address | null): string[] => {
  if (!address) return [];
  const cityLine = [address.city, [address.state, address.postal_code].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [address.line1, address.line2, cityLine, address.country === 'US' ? 'United States' : address.country].filter(
    (line): line is string => typeof line === 'string' && line !== '',
  );
};

export function invoiceDocument(input: {
  readonly invoice: Stripe.Invoice;
  readonly creditNotes: readonly Stripe.CreditNote[];
  /** The terms the invoice was created with (`days_until_due`). */
  readonly daysUntilDue: number;
  readonly seller: SellerDetails;
}): InvoiceDocument {
  const { invoice, seller } = input;
  const number = invoice.number ?? invoice.id;
  const sum = (lines: readonly Stripe.InvoiceLineItem[]) => lines.reduce((total, line) => total + line.amount, 0);
  const items = invoice.lines.data.filter(
    (line) => line.description !== SHIPPING_LINE && line.description !== SALES_TAX_LINE,
  );
  const shipping = sum(invoice.lines.data.filter((line) => line.description === SHIPPING_LINE));
  const tax = sum(invoice.lines.data.filter((line) => line.description === SALES_TAX_LINE));
  const po = (invoice.custom_fields ?? []).find((field) => field.name === 'PO number')?.value;
  const issued = invoice.status_transitions.finalized_at ?? invoice.created;
  return {
    title: `Invoice ${number}`,
    number,
    status: STATUS_WORDS[invoice.status ?? 'draft'] ?? String(invoice.status),
    seller,
    billTo: {
      name: invoice.customer_name ?? '—',
      email: invoice.customer_email ?? '—',
      addressLines: addressLines(invoice.customer_address),
    },
    facts: [
      ['Invoice number', number],
      ['Date of issue', invoiceDate(issued)],
      ['Date due', invoiceDate(invoice.due_date)],
      ['Terms', input.daysUntilDue > 0 ? `Net ${input.daysUntilDue}` : 'Due on receipt'],
      ...(po ? [['PO number', po] as const] : []),
    ],
    lines: items.map((line) => {
      const quantity = line.quantity ?? 1;
      return {
        description: line.description ?? '',
        quantity: String(quantity),
        unitPrice: formatUsd(Math.round(line.amount / Math.max(quantity, 1))),
        amount: formatUsd(line.amount),
      };
    }),
    totals: [
      ['Subtotal', formatUsd(sum(items))],
      ['Shipping', formatUsd(shipping)],
      ['Sales tax', formatUsd(tax)],
      ['Total', formatUsd(invoice.total)],
    ],
    credits: input.creditNotes.map((note) => ({
      label: `Credit note ${note.number}${note.memo ? ` (${note.memo})` : ''}`,
      date: invoiceDate(note.created),
      amount: `-${formatUsd(note.amount)}`,
    })),
    payments:
      invoice.amount_paid > 0
        ? [
            {
              label: 'Payment',
              date: invoiceDate(invoice.status_transitions.paid_at),
              amount: `-${formatUsd(invoice.amount_paid)}`,
            },
          ]
        : [],
    amountDue: formatUsd(invoice.amount_remaining),
  };
}
