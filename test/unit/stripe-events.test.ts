import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyStripeEvent } from '../../functions/adapters/stripe-event-verifier';
import { InvoiceRecord, invoiceIdFor } from '../../functions/domain/billing/invoice';
import type { ProviderInvoice } from '../../functions/domain/billing/invoicing-provider';
import { StripeEvents } from '../../functions/domain/billing/stripe-events';
import { ValidationFailed } from '../../functions/domain/errors';
import { METRIC } from '../../functions/domain/metrics';
import { InMemoryInvoiceRepository } from '../support/fakes/in-memory-invoices';
import { recordingMetrics } from '../support/recording-metrics';
import { RecordingQueue } from '../support/fakes/recording-ports';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';

const SECRET = 'whsec_test_secret';
const stripe = new Stripe('sk_test_unused');
const ORDER = '8a3c1f0e-5b2d-4c6a-9e7f-0123456789ab';

const issued: InvoiceRecord = InvoiceRecord.parse({
  id: invoiceIdFor(ORDER),
  orderId: ORDER,
  partnerId: 'partner-1',
  organizationId: 'org-1',
  internalOrgId: 'practice-1',
  stripeInvoiceId: 'in_1',
  number: 'ABCD-0001',
  status: 'open',
  totalCents: 50_000,
  amountDueCents: 50_000,
  amountPaidCents: 0,
  amountCreditedCents: 0,
  dueDate: '2030-02-01T00:00:00.000Z',
  hostedInvoiceUrl: 'https://invoice.example.com/i/in_1',
  invoicePdf: 'https://invoice.example.com/i/in_1/pdf',
  creditNotes: [],
  issuedAt: '2030-01-02T00:00:00.000Z',
  updatedAt: '2030-01-02T00:00:00.000Z',
  version: 1,
});

/** A signed event; `object` overrides what the event says of the invoice (the service reads Stripe's copy instead). */
function signed(
  id: string,
  type: string,
  created: number,
  secret = SECRET,
  object: Record<string, unknown> = {},
  timestamp?: number,
) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    created,
    data: { object: { id: 'in_1', object: 'invoice', metadata: { orderId: ORDER }, ...object } },
  });
  return {
    payload,
    header: stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) }),
  };
}

/** Stripe's copy of the invoice, as `invoices.retrieve` answers it. */
const openAtStripe = (): ProviderInvoice => ({
  id: 'in_1',
  status: 'open',
  number: 'ABCD-0001',
  lineCount: 1,
  totalCents: 50_000,
  amountRemainingCents: 50_000,
  amountPaidCents: 0,
  dueDate: '2030-02-01T00:00:00.000Z',
});
const paidAtStripe = (): ProviderInvoice => ({
  ...openAtStripe(),
  status: 'paid',
  amountRemainingCents: 0,
  amountPaidCents: 50_000,
});

function world() {
  const invoices = new InMemoryInvoiceRepository();
  invoices.records.set(ORDER, structuredClone(issued));
  const metrics = recordingMetrics();
  const queue = new RecordingQueue<OrderEventMessage>();
  const atStripe: { invoice: ProviderInvoice | undefined } = { invoice: openAtStripe() };
  const events = new StripeEvents({
    invoices,
    provider: { retrieve: async (id) => (id === atStripe.invoice?.id ? structuredClone(atStripe.invoice) : undefined) },
    clock: { now: () => new Date('2030-01-10T00:00:00.000Z') },
    metrics,
    events: queue,
  });
  const deliver = async (request: { payload: string; header?: string }) =>
    (await events.handle(verifyStripeEvent(stripe, request.payload, request.header, SECRET, now))).outcome;
  return { invoices, metrics, deliver, atStripe, sent: () => queue.sent.map(({ message }) => message.event) };
}

const now = Math.floor(Date.now() / 1000);

describe('Stripe events in', () => {
  it('a valid invoice.paid marks the invoice paid, counted once', async () => {
    const { invoices, metrics, deliver, sent, atStripe } = world();
    atStripe.invoice = paidAtStripe();
    await expect(deliver(signed('evt_1', 'invoice.paid', now))).resolves.toBe('applied');
    expect(sent()).toEqual(['invoice.paid']);
    expect(invoices.records.get(ORDER)).toMatchObject({
      status: 'paid',
      amountDueCents: 0,
      amountPaidCents: 50_000,
    });
    expect(metrics.total(METRIC.invoicesPaid)).toBe(1);
  });

  it('refuses a forged and an unsigned event, changing nothing', async () => {
    const { invoices, deliver, sent } = world();
    const forged = signed('evt_1', 'invoice.paid', now, 'whsec_someone_else');
    await expect(deliver(forged)).rejects.toBeInstanceOf(ValidationFailed);
    await expect(deliver({ payload: forged.payload })).rejects.toBeInstanceOf(ValidationFailed);
    const tampered = signed('evt_1', 'invoice.overdue', now);
    await expect(
      deliver({ payload: tampered.payload.replace('overdue', 'paid'), header: tampered.header }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    await expect(deliver({ payload: 'x'.repeat(300 * 1024), header: tampered.header })).rejects.toBeInstanceOf(
      ValidationFailed,
    );
    expect(invoices.records.get(ORDER)).toEqual(issued);
    expect(sent()).toEqual([]);
  });

  it('refuses a signature dated more than 5 minutes ahead, as one more than 5 minutes old', async () => {
    const { invoices, deliver, atStripe } = world();
    atStripe.invoice = paidAtStripe();
    for (const timestamp of [now + 301, now + 3600, now - 301]) {
      const event = signed('evt_1', 'invoice.paid', now, SECRET, {}, timestamp);
      await expect(deliver(event)).rejects.toBeInstanceOf(ValidationFailed);
    }
    expect(invoices.records.get(ORDER)).toEqual(issued);
    await expect(deliver(signed('evt_1', 'invoice.paid', now, SECRET, {}, now + 299))).resolves.toBe('applied');
  });

  it('refuses a signed event whose created is not whole seconds from 1970 to 9999, changing nothing', async () => {
    const { invoices, deliver, sent, atStripe } = world();
    atStripe.invoice = paidAtStripe();
    for (const created of [-1, 1.5, -4_250_117_689_310_703, 253_402_300_800])
      await expect(deliver(signed('evt_1', 'invoice.paid', created))).rejects.toBeInstanceOf(ValidationFailed);
    expect(invoices.records.get(ORDER)).toEqual(issued);
    expect(sent()).toEqual([]);
  });

  it('processes a replayed event once', async () => {
    const { invoices, metrics, deliver, atStripe } = world();
    const event = signed('evt_1', 'invoice.payment_failed', now);
    await expect(deliver(event)).resolves.toBe('applied');
    await expect(deliver(event)).resolves.toBe('duplicate');
    expect(invoices.records.get(ORDER)?.version).toBe(2);
    atStripe.invoice = paidAtStripe();
    await expect(deliver(signed('evt_2', 'invoice.paid', now + 1))).resolves.toBe('applied');
    await expect(deliver(signed('evt_2', 'invoice.paid', now + 1))).resolves.toBe('duplicate');
    expect(metrics.total(METRIC.invoicesPaid)).toBe(1);
  });

  it('never rolls a newer state back for an older event', async () => {
    const { invoices, deliver, sent, atStripe } = world();
    atStripe.invoice = paidAtStripe();
    await deliver(signed('evt_2', 'invoice.paid', now));
    await expect(deliver(signed('evt_1', 'invoice.overdue', now - 60))).resolves.toBe('unchanged');
    expect(invoices.records.get(ORDER)).toMatchObject({ status: 'paid', amountDueCents: 0 });
    expect(sent()).toEqual(['invoice.paid']);
  });

  it('answers unknown kinds and other invoices without changing anything', async () => {
    const { invoices, deliver, sent } = world();
    await expect(deliver(signed('evt_1', 'invoice.finalized', now))).resolves.toBe('ignored');
    await expect(deliver(signed('evt_2', 'customer.updated', now))).resolves.toBe('ignored');
    expect(invoices.records.get(ORDER)).toEqual(issued);
    expect(sent()).toEqual([]);
  });

  it('announces overdue, and sends nothing for a void invoice', async () => {
    const { invoices, deliver, sent, atStripe } = world();
    await deliver(signed('evt_1', 'invoice.overdue', now));
    atStripe.invoice = { ...openAtStripe(), status: 'void' };
    await deliver(signed('evt_2', 'invoice.voided', now + 1));
    expect(invoices.records.get(ORDER)).toMatchObject({ status: 'void' });
    expect(sent()).toEqual(['invoice.overdue']);
  });
});

describe('Stripe events that cannot be applied', () => {
  it("stores Stripe's copy, never the amounts an event carries", async () => {
    const { invoices, deliver } = world();
    for (const amount of [-5, 1.5, 'abc', 99_999_999]) {
      const event = signed(`evt_${String(amount)}`, 'invoice.payment_failed', now, SECRET, {
        amount_paid: amount,
        amount_remaining: amount,
      });
      await deliver(event);
      expect(invoices.records.get(ORDER)).toMatchObject({ amountPaidCents: 0, amountDueCents: 50_000 });
    }
  });

  it("ignores, without storing, Stripe's copy when its amounts do not fit the record or its total differs", async () => {
    const { invoices, deliver, atStripe } = world();
    const misfits: ProviderInvoice[] = [
      { ...openAtStripe(), amountPaidCents: -5 },
      { ...openAtStripe(), amountPaidCents: 1.5 },
      { ...openAtStripe(), amountPaidCents: 99_999_999, amountRemainingCents: 0, status: 'paid' },
      { ...openAtStripe(), totalCents: 60_000, amountRemainingCents: 60_000 },
    ];
    for (const [index, misfit] of misfits.entries()) {
      atStripe.invoice = misfit;
      await expect(deliver(signed(`evt_${index}`, 'invoice.paid', now))).resolves.toBe('ignored');
    }
    expect(invoices.records.get(ORDER)).toEqual(issued);
  });

  it('keeps a credit note when an older failed payment arrives after it', async () => {
    const { invoices, deliver, atStripe } = world();
    const credited = {
      ...issued,
      amountCreditedCents: 10_000,
      amountDueCents: 40_000,
      lastEventCreated: now,
      version: 2,
    };
    invoices.records.set(ORDER, credited);
    atStripe.invoice = { ...openAtStripe(), amountRemainingCents: 40_000 };
    await deliver(signed('evt_1', 'invoice.payment_failed', now - 1));
    await deliver(signed('evt_2', 'invoice.payment_failed', now + 1));
    expect(invoices.records.get(ORDER)).toMatchObject({ amountDueCents: 40_000, amountCreditedCents: 10_000 });
  });

  it('keeps an uncollectible invoice uncollectible when a payment fails, and lets it be paid', async () => {
    const { invoices, deliver, atStripe } = world();
    atStripe.invoice = { ...openAtStripe(), status: 'uncollectible' };
    await deliver(signed('evt_1', 'invoice.marked_uncollectible', now));
    atStripe.invoice = openAtStripe();
    await expect(deliver(signed('evt_2', 'invoice.payment_failed', now + 1))).resolves.toBe('ignored');
    expect(invoices.records.get(ORDER)?.status).toBe('uncollectible');
    atStripe.invoice = paidAtStripe();
    await expect(deliver(signed('evt_3', 'invoice.paid', now + 2))).resolves.toBe('applied');
    expect(invoices.records.get(ORDER)?.status).toBe('paid');
  });

  it("moves the due date to Stripe's when the invoice falls overdue", async () => {
    const { invoices, deliver, atStripe } = world();
    atStripe.invoice = { ...openAtStripe(), dueDate: '2030-01-09T23:59:59.000Z' };
    await deliver(signed('evt_1', 'invoice.overdue', now));
    expect(invoices.records.get(ORDER)).toMatchObject({ status: 'overdue', dueDate: '2030-01-09T23:59:59.000Z' });
  });

  it('ignores, before any read, order ids that can never be ours, and invoices Stripe does not know', async () => {
    const { invoices, deliver, atStripe } = world();
    invoices.getByOrder = () => Promise.reject(new Error('read an order id that is not ours'));
    for (const orderId of ['x'.repeat(3000), 'not-a-uuid', '../../x', '12345', `${ORDER}x`])
      await expect(
        deliver(signed(`evt_${orderId.length}`, 'invoice.paid', now, SECRET, { metadata: { orderId } })),
      ).resolves.toBe('ignored');
    atStripe.invoice = undefined;
    invoices.getByOrder = async (orderId) => structuredClone(invoices.records.get(orderId));
    await expect(deliver(signed('evt_unknown', 'invoice.paid', now))).resolves.toBe('ignored');
    expect(invoices.records.get(ORDER)).toEqual(issued);
  });
});
