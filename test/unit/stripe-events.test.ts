import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyStripeEvent } from '../../functions/adapters/stripe-event-verifier';
import { InvoiceRecord, invoiceIdFor } from '../../functions/domain/billing/invoice';
import { StripeEvents } from '../../functions/domain/billing/stripe-events';
import { ValidationFailed } from '../../functions/domain/errors';
import { METRIC } from '../../functions/domain/metrics';
import { InMemoryInvoiceRepository } from '../support/fakes/in-memory-invoices';
import { recordingMetrics } from '../support/recording-metrics';
import { RecordingQueue } from '../support/fakes/recording-ports';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';

const SECRET = 'whsec_test_secret';
const stripe = new Stripe('sk_test_unused');

const issued: InvoiceRecord = InvoiceRecord.parse({
  id: invoiceIdFor('order-1'),
  orderId: 'order-1',
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

function signed(id: string, type: string, created: number, paid: boolean, secret = SECRET) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    created,
    data: {
      object: {
        id: 'in_1',
        object: 'invoice',
        amount_paid: paid ? 50_000 : 0,
        amount_remaining: paid ? 0 : 50_000,
        metadata: { orderId: 'order-1' },
      },
    },
  });
  return { payload, header: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

function world() {
  const invoices = new InMemoryInvoiceRepository();
  invoices.records.set('order-1', structuredClone(issued));
  const metrics = recordingMetrics();
  const queue = new RecordingQueue<OrderEventMessage>();
  const events = new StripeEvents({
    invoices,
    clock: { now: () => new Date('2030-01-10T00:00:00.000Z') },
    metrics,
    events: queue,
  });
  const deliver = async (request: { payload: string; header?: string }) =>
    events.handle(verifyStripeEvent(stripe, request.payload, request.header, SECRET));
  return { invoices, metrics, deliver, sent: () => queue.sent.map(({ message }) => message.event) };
}

const now = Math.floor(Date.now() / 1000);

describe('Stripe events in', () => {
  it('a valid invoice.paid marks the invoice paid, counted once', async () => {
    const { invoices, metrics, deliver, sent } = world();
    await expect(deliver(signed('evt_1', 'invoice.paid', now, true))).resolves.toBe('applied');
    expect(sent()).toEqual(['invoice.paid']);
    expect(invoices.records.get('order-1')).toMatchObject({
      status: 'paid',
      amountDueCents: 0,
      amountPaidCents: 50_000,
    });
    expect(metrics.total(METRIC.invoicesPaid)).toBe(1);
  });

  it('refuses a forged and an unsigned event, changing nothing', async () => {
    const { invoices, deliver, sent } = world();
    const forged = signed('evt_1', 'invoice.paid', now, true, 'whsec_someone_else');
    await expect(deliver(forged)).rejects.toBeInstanceOf(ValidationFailed);
    await expect(deliver({ payload: forged.payload })).rejects.toBeInstanceOf(ValidationFailed);
    const tampered = signed('evt_1', 'invoice.overdue', now, false);
    await expect(
      deliver({ payload: tampered.payload.replace('overdue', 'paid'), header: tampered.header }),
    ).rejects.toBeInstanceOf(ValidationFailed);
    await expect(deliver({ payload: 'x'.repeat(300 * 1024), header: tampered.header })).rejects.toBeInstanceOf(
      ValidationFailed,
    );
    expect(invoices.records.get('order-1')).toEqual(issued);
    expect(sent()).toEqual([]);
  });

  it('processes a replayed event once', async () => {
    const { invoices, metrics, deliver } = world();
    const event = signed('evt_1', 'invoice.payment_failed', now, false);
    await expect(deliver(event)).resolves.toBe('applied');
    await expect(deliver(event)).resolves.toBe('duplicate');
    expect(invoices.records.get('order-1')?.version).toBe(2);
    await expect(deliver(signed('evt_2', 'invoice.paid', now + 1, true))).resolves.toBe('applied');
    await expect(deliver(signed('evt_2', 'invoice.paid', now + 1, true))).resolves.toBe('duplicate');
    expect(metrics.total(METRIC.invoicesPaid)).toBe(1);
  });

  it('never rolls a newer state back for an older event', async () => {
    const { invoices, deliver, sent } = world();
    await deliver(signed('evt_2', 'invoice.paid', now, true));
    await expect(deliver(signed('evt_1', 'invoice.overdue', now - 60, false))).resolves.toBe('unchanged');
    expect(invoices.records.get('order-1')).toMatchObject({ status: 'paid', amountDueCents: 0 });
    expect(sent()).toEqual(['invoice.paid']);
  });

  it('answers unknown kinds and other invoices without changing anything', async () => {
    const { invoices, deliver, sent } = world();
    await expect(deliver(signed('evt_1', 'invoice.finalized', now, false))).resolves.toBe('ignored');
    await expect(deliver(signed('evt_2', 'customer.updated', now, false))).resolves.toBe('ignored');
    expect(invoices.records.get('order-1')).toEqual(issued);
    expect(sent()).toEqual([]);
  });

  it('announces overdue, and sends nothing for a void invoice', async () => {
    const { invoices, deliver, sent } = world();
    await deliver(signed('evt_1', 'invoice.overdue', now, false));
    await deliver(signed('evt_2', 'invoice.voided', now + 1, false));
    expect(invoices.records.get('order-1')).toMatchObject({ status: 'void' });
    expect(sent()).toEqual(['invoice.overdue']);
  });
});
