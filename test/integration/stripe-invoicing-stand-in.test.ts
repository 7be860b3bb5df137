/**
 * The local Stripe's invoicing stand-in through the real `stripe` SDK: drafts, lines,
 * finalization, the hosted page and its PDF, payment, credit notes, idempotency keys,
 * and the events it signs and sends (verified with the SDK's own `constructEvent`).
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFParse } from 'pdf-parse';
import type Stripe from 'stripe';
import { stripeStandIn } from '../support/inspect';

const stripe = stripeStandIn();
let receiver: Server;
let secret: string;
const received: Stripe.Event[] = [];
const refused: string[] = [];
const arrivals = new EventEmitter();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        received.push(
          stripe.webhooks.constructEvent(Buffer.concat(chunks), String(req.headers['stripe-signature']), secret),
        );
        res.writeHead(200).end();
        arrivals.emit('event');
      } catch (error) {
        refused.push(String(error));
        res.writeHead(400).end();
      }
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const endpoint = await stripe.webhookEndpoints.create({
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
    enabled_events: ['*'],
  });
  secret = endpoint.secret ?? '';
});
afterAll(() => new Promise<void>((done) => receiver.close(() => done())));

/** Events of one invoice (the stand-in is shared by the whole run), once they arrived. */
async function eventsOf(invoiceId: string, count: number): Promise<Stripe.Event[]> {
  const of = () =>
    received.filter((event) => {
      const object = event.data.object as { id?: string; invoice?: string };
      return object.id === invoiceId || object.invoice === invoiceId;
    });
  // Delivery is a POST to our own receiver: wait for the request to arrive, not for time.
  while (of().length < count) await once(arrivals, 'event');
  return of();
}

async function aFinalizedInvoice(key = `k-${Math.random()}`) {
  const customer = await stripe.customers.create({ name: 'Smile Dental' });
  const draft = await stripe.invoices.create(
    {
      customer: customer.id,
      collection_method: 'send_invoice',
      days_until_due: 30,
      custom_fields: [{ name: 'PO number', value: 'PO-7' }],
      metadata: { orderId: 'order-1' },
    },
    { idempotencyKey: `${key}-create` },
  );
  const withLines = await stripe.invoices.addLines(draft.id, {
    lines: [
      {
        price_data: { currency: 'usd', product_data: { name: 'Gloves (SKU GLV-1)' }, unit_amount: 1249 },
        quantity: 3,
      },
      { amount: 1500, description: 'Shipping' },
    ],
  });
  const finalized = await stripe.invoices.finalizeInvoice(draft.id);
  return { customer, draft, withLines, finalized };
}

describe('the Stripe invoicing stand-in', () => {
  it('creates a send_invoice draft, adds lines that add up, and finalizes it with a number, due date, page and PDF', async () => {
    const { draft, withLines, finalized } = await aFinalizedInvoice();
    expect(draft).toMatchObject({ status: 'draft', collection_method: 'send_invoice', total: 0 });
    expect(withLines.total).toBe(3 * 1249 + 1500);
    expect(finalized).toMatchObject({ status: 'open', amount_remaining: 5247, metadata: { orderId: 'order-1' } });
    expect(finalized.number).toMatch(/-\d{4}$/);
    expect((finalized.due_date ?? 0) - (finalized.status_transitions.finalized_at ?? 0)).toBe(30 * 86_400);
    expect(finalized.custom_fields).toEqual([{ name: 'PO number', value: 'PO-7' }]);

    const page = await fetch(finalized.hosted_invoice_url ?? '');
    const html = await page.text();
    expect(html).toContain(`Invoice ${finalized.number}`);
    expect(html).toContain('<button type="submit">Pay</button>');
    const pdf = await fetch(finalized.invoice_pdf ?? '');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 8)
        .toString(),
    ).toBe('%PDF-1.3');
  });

  it('answers a repeated idempotency key with the first invoice, and refuses the key with other parameters', async () => {
    const customer = await stripe.customers.create({ name: 'Twice' });
    const params = { customer: customer.id, collection_method: 'send_invoice' as const, days_until_due: 15 };
    const first = await stripe.invoices.create(params, { idempotencyKey: `twice-${customer.id}` });
    const again = await stripe.invoices.create(params, { idempotencyKey: `twice-${customer.id}` });
    expect(again.id).toBe(first.id);
    await expect(
      stripe.invoices.create({ ...params, days_until_due: 60 }, { idempotencyKey: `twice-${customer.id}` }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
    const listed = await stripe.invoices.list({ customer: customer.id, limit: 10 });
    expect(listed.data.map((invoice) => invoice.id)).toEqual([first.id]);
  });

  it('sends invoice.finalized and, after Pay on the hosted page, invoice.paid, signed for constructEvent', async () => {
    const { finalized } = await aFinalizedInvoice();
    const pay = await fetch(`${finalized.hosted_invoice_url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(303);

    const events = await eventsOf(finalized.id, 2);
    expect(events.map((event) => event.type)).toEqual(['invoice.finalized', 'invoice.paid']);
    expect(await stripe.invoices.retrieve(finalized.id)).toMatchObject({
      status: 'paid',
      amount_paid: 5247,
      amount_remaining: 0,
    });
    expect(refused).toEqual([]);
    await expect(stripe.invoices.pay(finalized.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('issues credit notes up to the total, lowering what is due, and says so with credit_note.created', async () => {
    const { finalized } = await aFinalizedInvoice();
    const note = await stripe.creditNotes.create({
      invoice: finalized.id,
      amount: 1000,
      metadata: { refundSequence: '5' },
    });
    expect(note).toMatchObject({ amount: 1000, invoice: finalized.id, type: 'pre_payment' });
    expect((await stripe.invoices.retrieve(finalized.id)).amount_remaining).toBe(4247);
    await expect(stripe.creditNotes.create({ invoice: finalized.id, amount: 4248 })).rejects.toMatchObject({
      statusCode: 400,
    });
    const events = await eventsOf(finalized.id, 2);
    expect(events.map((event) => event.type)).toEqual(['invoice.finalized', 'credit_note.created']);
  });

  it('marks an open invoice overdue on its own trigger and sends invoice.overdue', async () => {
    const { finalized } = await aFinalizedInvoice();
    const base = new URL(finalized.hosted_invoice_url ?? '').origin;
    const overdue = await fetch(`${base}/stand-in/invoices/${finalized.id}/overdue`, { method: 'POST' });
    expect(overdue.status).toBe(200);
    const events = await eventsOf(finalized.id, 2);
    expect(events.at(-1)?.type).toBe('invoice.overdue');
    expect((await stripe.invoices.retrieve(finalized.id)).status).toBe('open');
  });

  it('shows on the hosted page and the Letter PDF what a bookkeeper files: seller, bill-to, dates, terms, PO, lines, tax, shipping, credits, payments', async () => {
    // As the service does it: a customer created, then its details set (stripe-stateful-mock keeps a name only from an update).
    const customer = await stripe.customers.create({});
    await stripe.customers.update(customer.id, {
      name: 'Smile Dental <Group>',
      email: 'ap@smile.test',
      address: { line1: '1 Skyline Dr', city: 'Roanoke', state: 'VA', postal_code: '24011', country: 'US' },
    });
    const draft = await stripe.invoices.create({
      customer: customer.id,
      collection_method: 'send_invoice',
      days_until_due: 30,
      custom_fields: [{ name: 'PO number', value: 'PO-2291' }],
    });
    const item = (name: string, unit: number, quantity: number) => ({
      price_data: { currency: 'usd' as const, product_data: { name }, unit_amount: unit },
      quantity,
    });
    await stripe.invoices.addLines(draft.id, {
      lines: [
        item('Nitrile gloves (SKU GLV-1)', 1249, 3),
        item('Surface wipes (SKU WIP-2)', 899, 2),
        item('Shipping', 1500, 1),
        item('Sales tax', 303, 1),
      ],
    });
    const finalized = await stripe.invoices.finalizeInvoice(draft.id);
    const note = await stripe.creditNotes.create({ invoice: finalized.id, amount: 1000, memo: 'Damaged box' });
    await stripe.invoices.pay(finalized.id, { paid_out_of_band: true });
    const paid = await stripe.invoices.retrieve(finalized.id);
    const date = (seconds: number | null | undefined) =>
      new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' }).format(
        new Date((seconds ?? 0) * 1000),
      );
    const expected = [
      `Invoice ${finalized.number}`,
      'Example Procurement Co.',
      '500 Supply Way, Suite 200',
      'Richmond, VA 23219',
      'Smile Dental <Group>',
      'ap@smile.test',
      '1 Skyline Dr',
      'Roanoke, VA 24011',
      `Date of issue ${date(finalized.status_transitions.finalized_at)}`,
      `Date due ${date(finalized.due_date)}`,
      'Terms Net 30',
      'PO number PO-2291',
      'Nitrile gloves (SKU GLV-1) 3 $12.49 $37.47',
      'Surface wipes (SKU WIP-2) 2 $8.99 $17.98',
      'Subtotal $55.45',
      'Shipping $15.00',
      'Sales tax $3.03',
      'Total $73.48',
      `Credit note ${note.number} (Damaged box), ${date(note.created)} -$10.00`,
      `Payment, ${date(paid.status_transitions.paid_at)} -$63.48`,
      'Amount due $0.00',
    ];
    const words = (text: string) => text.replace(/\s+/g, ' ');

    const page = await fetch(finalized.hosted_invoice_url ?? '');
    const html = await page.text();
    expect(html).toContain('Smile Dental &lt;Group>');
    const pageText = words(html.replace(/<[^>]+>/g, ' ').replaceAll('&lt;', '<'));
    for (const field of expected) expect(pageText, field).toContain(field);

    const pdf = await fetch(finalized.invoice_pdf ?? '');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${finalized.number}.pdf"`);
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    try {
      const pdfText = words((await parser.getText()).text);
      for (const field of expected) expect(pdfText, field).toContain(field);
      const info = await parser.getInfo({ parsePageInfo: true });
      expect(info.pages.map((one) => [one.width, one.height])).toEqual([[612, 792]]);
    } finally {
      await parser.destroy();
    }
  });

  it('still serves stripe-stateful-mock on the same port (customers)', async () => {
    const customer = await stripe.customers.create({ email: 'ap@practice.test' });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      email: 'ap@practice.test',
    });
  });
});
