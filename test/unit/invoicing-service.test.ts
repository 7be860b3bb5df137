import { describe, expect, it } from 'vitest';
import { InvoicingService } from '../../functions/domain/billing/invoicing-service';
import { InvoiceNotIssuedYet } from '../../functions/domain/errors';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';
import { WEBHOOK_EVENT_DATA } from '../../functions/domain/events/order-events';
import { METRIC } from '../../functions/domain/metrics';
import type { OrderId } from '../../functions/domain/orders/order';
import { InMemoryInvoiceRepository, InMemoryInvoicing } from '../support/fakes/in-memory-invoices';
import { InMemoryOrganizationRepository } from '../support/fakes/in-memory-organization-repository';
import { RecordingQueue } from '../support/fakes/recording-ports';
import { anOrderingWorld } from '../support/order-fixtures';
import { recordingMetrics } from '../support/recording-metrics';

const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-11-25T17:00:00.000Z',
};

/** A shipped order to California (so it has sales tax) and the invoicing service over in-memory ports. */
async function aShippedOrder() {
  const world = await anOrderingWorld();
  const { cartService, orderService, profile, organization, partner, california } = world;
  await cartService.add(profile.id, 'GLV-NIT-M-100', 3);
  await cartService.add(profile.id, 'PPR-LTR-5000', 1);
  const placed = await orderService.placeOrder({ partner, profile, organization, shippingLocationId: california.id });
  const scope = { partnerId: partner.id };
  await orderService.transition(placed.id, 'confirm', {}, scope);
  const order = await orderService.transition(placed.id, 'ship', SHIPMENT, scope);
  const organizations = new InMemoryOrganizationRepository();
  organizations.aggregates.set(`${partner.id}#${organization.organization.internalOrgId}`, organization);
  const invoices = new InMemoryInvoiceRepository();
  const provider = new InMemoryInvoicing();
  const metrics = recordingMetrics();
  const events = new RecordingQueue<OrderEventMessage>();
  const service = new InvoicingService({
    orders: world.orders,
    organizations,
    invoices,
    provider,
    salesTax: world.taxProvider,
    clock: world.clock,
    metrics,
    events,
    stage: 'sandbox',
  });
  const refund = async (amount?: number) =>
    orderService.transition(order.id, 'refund', amount === undefined ? {} : { amount }, scope);
  const deliver = () => orderService.transition(order.id, 'deliver', { signature: 'R. Front-Desk' }, scope);
  return { order, service, invoices, provider, metrics, events, refund, deliver };
}

describe('issuing the invoice of a shipped order', () => {
  it('issues one finalized invoice whose lines add up to the order total, and records it', async () => {
    const { order, service, invoices, provider, metrics } = await aShippedOrder();
    expect(order.taxCents).toBeGreaterThan(0);

    const invoice = await service.issue(order.id);

    expect(invoice).toMatchObject({ orderId: order.id, status: 'open', totalCents: order.totalCents, version: 1 });
    expect(await invoices.getByOrder(order.id)).toEqual(invoice);
    const [issued] = [...provider.invoices.values()];
    expect(issued?.lines.map((line) => line.description)).toEqual([
      'Nitrile Exam Gloves, Powder-Free, Medium (SKU GLV-NIT-M-100)',
      expect.stringContaining('(SKU PPR-LTR-5000)'),
      ...(order.shippingCents > 0 ? ['Shipping'] : []),
      'Sales tax',
    ]);
    expect(metrics.total(METRIC.invoicesIssued)).toBe(1);
  });

  it.each([
    ['create', 'before'],
    ['create', 'after'],
    ['addLines', 'before'],
    ['addLines', 'after'],
    ['finalize', 'before'],
    ['finalize', 'after'],
  ] as const)(
    'leaves exactly one invoice when %s fails %s Stripe acts, then the message is retried',
    async (step, when) => {
      const { order, service, provider } = await aShippedOrder();
      provider.failAt(step, when);

      await expect(service.issue(order.id)).rejects.toThrow();
      const invoice = await service.issue(order.id);

      expect(provider.invoices.size).toBe(1);
      expect(invoice).toMatchObject({ status: 'open', totalCents: order.totalCents });
    },
  );

  it('gives two deliveries of one shipment the same invoice, counted once', async () => {
    const { order, service, provider, metrics } = await aShippedOrder();
    const [first, second] = await Promise.all([service.issue(order.id), service.issue(order.id)]);
    expect(second).toEqual(first);
    expect(provider.invoices.size).toBe(1);
    expect(metrics.total(METRIC.invoicesIssued)).toBe(1);
  });
});

describe('crediting refunds of an invoiced order', () => {
  it('issues a credit note per partial refund, adding up to the total and never beyond', async () => {
    const { order, service, provider, refund, deliver } = await aShippedOrder();
    await service.issue(order.id);
    await deliver();
    const first = await refund(10);
    await service.credit(order.id as OrderId, first.sequence);
    // A second delivery of a refund's message credits nothing more.
    expect((await service.credit(order.id as OrderId, first.sequence)).amountCreditedCents).toBe(1000);
    const rest = await refund();
    const invoice = await service.credit(order.id as OrderId, rest.sequence);

    expect(provider.creditNotes.map((note) => note.amountCents)).toEqual([1000, order.totalCents - 1000]);
    expect(invoice).toMatchObject({ amountCreditedCents: order.totalCents, amountDueCents: 0 });
    expect(invoice.creditNotes.map((note) => note.refundSequence)).toEqual([first.sequence, rest.sequence]);
    // Stripe's credit note is the invoice's latest change: an event older than it changes nothing.
    expect(invoice.lastEventCreated).toBe(Date.parse(provider.creditNotes[1]!.createdAt) / 1000);
  });

  it('waits (the message is retried) while the refunded order has no invoice yet', async () => {
    const { order, service, refund, deliver } = await aShippedOrder();
    await deliver();
    const refunded = await refund(10);
    await expect(service.credit(order.id, refunded.sequence)).rejects.toThrow(InvoiceNotIssuedYet);
  });
});

describe("the partner's invoice events", () => {
  /** The events sent, each parsed with its kind's documented schema (a field too many or missing fails). */
  const parsed = (events: RecordingQueue<OrderEventMessage>) =>
    events.sent.map(({ message }) => ({ ...message, data: WEBHOOK_EVENT_DATA[message.event].parse(message.data) }));

  it('announces invoice.issued with the invoice in the order money format, under one id however often it is issued', async () => {
    const { order, service, events } = await aShippedOrder();
    const invoice = await service.issue(order.id);
    await service.issue(order.id);

    const [first, second] = parsed(events);
    expect(first).toMatchObject({
      event: 'invoice.issued',
      partnerId: order.partnerId,
      orderId: order.id,
      data: {
        order_id: order.id,
        partner_org_id: order.internalOrgId,
        issued_at: invoice.issuedAt,
        invoice: {
          id: invoice.id,
          number: invoice.number,
          status: 'open',
          total: order.totalCents / 100,
          amount_due: order.totalCents / 100,
          amount_paid: 0,
          amount_credited: 0,
          due_date: invoice.dueDate,
          hosted_invoice_url: invoice.hostedInvoiceUrl,
        },
      },
    });
    // The retry's event is the same event: the fan-out makes one delivery of it.
    expect(second?.eventId).toBe(first?.eventId);
  });

  it('sends invoice.issued again when the record was written but the event was not', async () => {
    const { order, service, events } = await aShippedOrder();
    const failing = { send: () => Promise.reject(new Error('SQS is down')) };
    // The record is written, then sending fails: the message is retried.
    Object.assign(events, { send: failing.send });
    await expect(service.issue(order.id)).rejects.toThrow('SQS is down');
    Object.assign(events, { send: RecordingQueue.prototype.send });

    await service.issue(order.id);
    expect(parsed(events).map((event) => event.event)).toEqual(['invoice.issued']);
  });

  it('announces invoice.credited per refund with its credit note, one id per refund', async () => {
    const { order, service, events, refund, deliver } = await aShippedOrder();
    await service.issue(order.id);
    await deliver();
    const first = await refund(10);
    await service.credit(order.id as OrderId, first.sequence);
    await service.credit(order.id as OrderId, first.sequence);
    const rest = await refund();
    await service.credit(order.id as OrderId, rest.sequence);

    const credited = parsed(events).filter((event) => event.event === 'invoice.credited');
    expect(credited.map((event) => event.data)).toMatchObject([
      { credit_note: { amount: 10 }, invoice: { amount_credited: 10 } },
      { credit_note: { amount: 10 }, invoice: { amount_credited: 10 } },
      {
        credit_note: { amount: (order.totalCents - 1000) / 100 },
        invoice: { amount_credited: order.totalCents / 100, amount_due: 0 },
      },
    ]);
    expect(new Set(credited.map((event) => event.eventId)).size).toBe(2);
  });
});
