import { randomUUID } from 'node:crypto';
import { addDays, subDays } from 'date-fns';
import { invoiceIdFor, type InvoiceRecord, type InvoiceStatus } from '../domain/billing/invoice';
import { invoiceCreditedEvent, invoiceIssuedEvent, invoiceStatusEvent } from '../domain/events/invoice-events';
import type { InvoiceEventKind } from '../domain/events/order-event-kinds';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import { SAMPLE_PO_NUMBER, type SampleEventInput, sampleItems, samplePricing } from './sample-cart';

/** Net 30, the default payment terms (docs/billing.md). */
const TERMS_DAYS = 30;

/**
 * Where each kind's invoice stands now: its status, how long ago it was issued, and what
 * was paid or credited. An overdue one was issued 31 days ago on net 30; a credited one
 * has a credit note for one box of the first line, refunded after delivery (the order's
 * fifth change).
 */
const STORY: Readonly<
  Record<InvoiceEventKind, { status: InvoiceStatus; issuedDaysAgo: number; paid?: true; credited?: true }>
> = {
  'invoice.issued': { status: 'open', issuedDaysAgo: 0 },
  'invoice.paid': { status: 'paid', issuedDaysAgo: 10, paid: true },
  'invoice.overdue': { status: 'overdue', issuedDaysAgo: 31 },
  'invoice.credited': { status: 'open', issuedDaysAgo: 5, credited: true },
};
const REFUND_SEQUENCE = 5;

/**
 * A realistic invoice event, built by the builders real invoices use: the sample cart's
 * order, shipped and invoiced on net 30, as the kind finds it now. Neither the order nor
 * the invoice exists (`GET /v1/invoices/{invoice_id}` answers 404), and its hosted page
 * and PDF links are Stripe-shaped but lead nowhere.
 */
export function sampleInvoiceEvent(input: SampleEventInput<InvoiceEventKind>): OrderEventMessage {
  const story = STORY[input.kind];
  const now = input.now.toISOString();
  const issuedAt = subDays(input.now, story.issuedDaysAgo);
  const items = sampleItems();
  const { totalCents, subtotalCents, taxCents, shippingCents } = samplePricing(items);
  const creditCents = story.credited ? (items[0]?.unitPriceCents ?? 0) : 0;
  const paidCents = story.paid ? totalCents : 0;
  const orderId = randomUUID();
  const stripeInvoiceId = `in_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const record: InvoiceRecord = {
    id: invoiceIdFor(orderId),
    orderId,
    partnerId: input.partnerId,
    organizationId: randomUUID(),
    internalOrgId: input.internalOrgId,
    stripeInvoiceId,
    number: 'A1B2C3D4-0042',
    status: story.status,
    totalCents,
    subtotalCents,
    taxCents,
    shippingCents,
    lines: items.map((item) => ({
      description: item.name,
      sku: item.productId,
      quantity: item.quantity,
      unitAmountCents: item.unitPriceCents,
      amountCents: item.quantity * item.unitPriceCents,
    })),
    amountDueCents: totalCents - paidCents - creditCents,
    amountPaidCents: paidCents,
    amountCreditedCents: creditCents,
    dueDate: addDays(issuedAt, TERMS_DAYS).toISOString(),
    hostedInvoiceUrl: `https://invoice.stripe.com/i/acct_test/${stripeInvoiceId}`,
    invoicePdf: `https://pay.stripe.com/invoice/acct_test/${stripeInvoiceId}/pdf`,
    poNumber: SAMPLE_PO_NUMBER,
    creditNotes: story.credited
      ? [
          {
            id: `cn_test_${stripeInvoiceId.slice(8)}`,
            refundSequence: REFUND_SEQUENCE,
            amountCents: creditCents,
            createdAt: now,
            number: 'A1B2C3D4-0042-CN-01',
            pdf: `https://pay.stripe.com/credit_notes/acct_test/cn_test_${stripeInvoiceId.slice(8)}/pdf`,
            reason: 'One box arrived damaged',
          },
        ]
      : [],
    issuedAt: issuedAt.toISOString(),
    ...(story.paid ? { paidAt: now } : {}),
    updatedAt: now,
    version: 1,
  };
  if (input.kind === 'invoice.issued') return invoiceIssuedEvent(record);
  if (input.kind === 'invoice.credited') return invoiceCreditedEvent(record, REFUND_SEQUENCE);
  const event = invoiceStatusEvent(record, now);
  if (!event) throw new RangeError(`An invoice ${record.status} announces no ${input.kind}`);
  return event;
}
