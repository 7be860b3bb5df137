/**
 * The invoice kinds through the real pipeline on a test stack: `webhook set --events`
 * accepts them, an endpoint that lists them receives `invoice.issued` and
 * `invoice.credited` as the invoicing sends them (signed, in the documented shape, one
 * delivery per event however often it is sent), and an endpoint set without them
 * receives none. An order.* payload built after the invoice is recorded carries it (the
 * object the invoice kinds carry); one built before carries `invoice: null`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDocumentClient } from '../../functions/adapters/aws/dynamodb-client';
import { createSqsClient } from '../../functions/adapters/aws/sqs-client';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import type { InvoiceRecord } from '../../functions/domain/billing/invoice';
import {
  invoiceCreditedEvent,
  invoiceIssuedEvent,
  toInvoicePayload,
} from '../../functions/domain/events/invoice-events';
import type { OrderEventMessage } from '../../functions/domain/events/order-event-message';
import { tableName } from '../../functions/resources/resource-definitions';
import { orderEventQueue } from '../../functions/composition/message-queues';
import { WEBHOOK_EVENT_DATA } from '../../functions/domain/events/order-events';
import { runOpsCapturing } from '../support/ops-run';
import { deliverEverything } from '../support/order-pipeline';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps });

/** An issued invoice of a new order of the partner, as the invoicing records it. */
const anInvoice = (partnerId: string): InvoiceRecord => {
  const orderId = randomUUID();
  return {
    id: `inv_${randomUUID().replaceAll('-', '')}`,
    orderId,
    partnerId,
    organizationId: randomUUID(),
    internalOrgId: 'acme-1',
    stripeInvoiceId: `in_${randomUUID().slice(0, 8)}`,
    number: 'A1B2C3D4-0001',
    status: 'open',
    totalCents: 3156,
    amountDueCents: 3156,
    amountPaidCents: 0,
    amountCreditedCents: 0,
    dueDate: '2036-12-22T12:05:00.000Z',
    hostedInvoiceUrl: 'http://127.0.0.1:12111/invoices/in_1',
    invoicePdf: 'http://127.0.0.1:12111/invoices/in_1/pdf',
    creditNotes: [],
    issuedAt: '2036-11-22T12:05:00.000Z',
    updatedAt: '2036-11-22T12:05:00.000Z',
    version: 1,
  };
};

const credited = (invoice: InvoiceRecord): InvoiceRecord => ({
  ...invoice,
  creditNotes: [{ id: 'cn_1', refundSequence: 5, amountCents: 1250, createdAt: '2036-11-25T15:00:00.000Z' }],
  amountCreditedCents: 1250,
  amountDueCents: 1906,
  version: 2,
});

const received = (orderId: string) =>
  receiver.requests
    .map((request) => ({ headers: request.headers, body: JSON.parse(request.rawBody.toString('utf8')) }))
    .filter(({ body }) => body.data?.order_id === orderId);

describe('invoice webhooks', () => {
  it('reach an endpoint subscribed with webhook set --events, once per event, in the documented shape', async () => {
    const { partnerId } = await stack.createPartner();
    const set = await ops([
      'webhook',
      'set',
      '--partner',
      partnerId,
      '--url',
      receiver.url,
      '--events',
      'order.created,invoice.issued,invoice.credited',
    ]);
    expect(set.code, set.text).toBe(0);
    expect((await ops(['webhook', 'show', '--partner', partnerId])).text).toMatch(
      /^events: +order\.created, invoice\.issued, invoice\.credited$/m,
    );

    const queue = orderEventQueue(stack.config, createSqsClient(inject('standIns').endpoints.sqs));
    const invoice = anInvoice(partnerId);
    // The invoicing sends again on every retry that finds the invoice recorded.
    await queue.send(invoiceIssuedEvent(invoice), 0);
    await queue.send(invoiceIssuedEvent(invoice), 0);
    await queue.send(invoiceCreditedEvent(credited(invoice), 5), 0);
    await deliverEverything(stack);

    const got = received(invoice.orderId);
    expect(got.map(({ body }) => body.event).sort()).toEqual(['invoice.credited', 'invoice.issued']);
    for (const { headers, body } of got) {
      expect(headers['x-service-event']).toBe(body.event);
      expect(() => WEBHOOK_EVENT_DATA[body.event as 'invoice.issued'].parse(body.data)).not.toThrow();
    }
    const creditedBody = got.find(({ body }) => body.event === 'invoice.credited')?.body;
    expect(creditedBody.data).toMatchObject({
      order_id: invoice.orderId,
      partner_org_id: 'acme-1',
      credit_note: { id: 'cn_1', amount: 12.5 },
      invoice: { id: invoice.id, total: 31.56, amount_due: 19.06, amount_credited: 12.5 },
    });
  });

  it('put the invoice on every order.* payload built after it is recorded, and null on one built before', async () => {
    const { partnerId } = await stack.createPartner();
    expect((await ops(['webhook', 'set', '--partner', partnerId, '--url', receiver.url])).code).toBe(0);
    const queue = orderEventQueue(stack.config, createSqsClient(inject('standIns').endpoints.sqs));
    const invoice = anInvoice(partnerId);
    const orderEvent = (event: 'order.shipped' | 'order.delivered'): OrderEventMessage => ({
      eventId: `evt_${randomUUID().replaceAll('-', '')}`,
      partnerId,
      event,
      timestamp: '2036-11-22T12:00:00.000Z',
      orderId: invoice.orderId,
      data: { order_id: invoice.orderId, partner_org_id: 'acme-1', status: event.slice('order.'.length) },
    });

    await queue.send(orderEvent('order.shipped'), 0);
    await deliverEverything(stack);
    await new DynamoInvoiceRepository(
      createDocumentClient(inject('standIns').endpoints.dynamodb),
      tableName(stack.config.RESOURCE_PREFIX, 'orders'),
      stack.clock,
    ).record(invoice);
    await queue.send(orderEvent('order.delivered'), 0);
    await deliverEverything(stack);

    const got = received(invoice.orderId).map(({ body }) => body);
    expect(got.map((body) => [body.event, body.data.invoice])).toEqual([
      ['order.shipped', null],
      ['order.delivered', toInvoicePayload(invoice)],
    ]);
  });

  it('skip an endpoint set without them, which keeps exactly the order kinds', async () => {
    const { partnerId } = await stack.createPartner();
    expect((await ops(['webhook', 'set', '--partner', partnerId, '--url', receiver.url])).code).toBe(0);
    const invoice = anInvoice(partnerId);
    const queue = orderEventQueue(stack.config, createSqsClient(inject('standIns').endpoints.sqs));
    await queue.send(invoiceIssuedEvent(invoice), 0);
    await deliverEverything(stack);
    expect(received(invoice.orderId)).toEqual([]);
  });

  it('refuses an unknown invoice kind in webhook set --events, naming the known ones', async () => {
    const { partnerId } = await stack.createPartner();
    const set = await ops([
      'webhook',
      'set',
      '--partner',
      partnerId,
      '--url',
      receiver.url,
      '--events',
      'invoice.sent',
    ]);
    expect(set.code).not.toBe(0);
    expect(set.text).toContain('invoice.credited');
  });
});
