/**
 * Invoicing off the request path on a local stack: a sandbox shipment reaches the
 * invoicing consumer through the outbox, which issues one finalized Stripe invoice that
 * adds up to the order; a failure at any step of issuing (create, add lines, finalize,
 * record), before or after Stripe acted, leaves exactly one invoice once the message is
 * retried; and partial refunds become credit notes that never exceed the total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { invoiceIdFor } from '../../functions/domain/billing/invoice';
import { METRIC } from '../../functions/domain/metrics';
import type { OrderId } from '../../functions/domain/orders/order';
import { FaultPlan, injectAwsFaults, startStripeFaultProxy, type StripeFaultProxy } from '../support/fault-plan';
import { stripeStandIn } from '../support/inspect';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const plan = new FaultPlan((call) => call.service === 'stripe' || call.service === 'dynamodb');
let proxy: StripeFaultProxy;
let stack: TestStack;
let removeDbFaults: () => void;

beforeAll(async () => {
  proxy = await startStripeFaultProxy(plan);
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { STRIPE_API_BASE: proxy.url } });
  removeDbFaults = injectAwsFaults(plan, stack.deps.aws.db, {
    service: 'dynamodb',
    prefix: stack.config.RESOURCE_PREFIX,
  });
});
afterAll(async () => {
  removeDbFaults?.();
  await stack?.close();
  await proxy?.close();
});

let counter = 0;

/** A partner and an organization set up through the API (a real Stripe customer), with a buyer. */
async function aPartnerWithOrganization(fields: Record<string, unknown> = {}) {
  counter += 1;
  const { apiKey } = await stack.createPartner();
  const bearer = { Authorization: `Bearer ${apiKey}` };
  const setup = await stack.post(
    '/v1/organizations/setup',
    aSetupRequest()
      .with({ internalOrgId: `org-invoiced-${counter}`, internalUserId: 'u-1', ...fields })
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build(),
    bearer,
  );
  expect(setup.status, setup.text).toBe(200);
  return { bearer, customerId: setup.body.data.organization.paymentCustomerId as string };
}

/** A sandbox order placed and shipped, its outbox relayed (the invoicing message is queued). */
async function aShippedOrder(fields: Record<string, unknown> = {}) {
  const partner = await aPartnerWithOrganization(fields);
  const placed = await stack.post(
    '/v1/sandbox/orders',
    {
      internal_user_id: 'u-1',
      items: [
        { product_id: 'GLV-NIT-M-100', quantity: 3 },
        { product_id: 'PPR-LTR-5000', quantity: 1 },
      ],
      po_number: 'PO-4471',
    },
    partner.bearer,
  );
  expect(placed.status, placed.text).toBe(201);
  const orderId = placed.body.order.id as OrderId;
  await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, partner.bearer);
  const shipped = await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, partner.bearer);
  expect(shipped.status, shipped.text).toBe(200);
  await relay();
  return { ...partner, orderId, order: shipped.body.order as { total: number } };
}

async function relay() {
  while ((await stack.orderOutbox.pollOnce()).received > 0);
}

const invoicesOf = async (customerId: string): Promise<Stripe.Invoice[]> =>
  (await stripeStandIn().invoices.list({ customer: customerId, limit: 100 })).data;

const invoicing = () => stack.deps.functions.invoicing.invoicing;

describe('invoicing a shipped order', () => {
  it('issues one finalized send_invoice invoice that equals the order total, records it, and counts it', async () => {
    const { orderId, customerId, order } = await aShippedOrder({ paymentTerms: 'net15' });

    const polled = await stack.consumers.invoicing.pollOnce();

    expect(polled).toMatchObject({ received: 1, failed: [] });
    const [invoice, ...others] = await invoicesOf(customerId);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      status: 'open',
      collection_method: 'send_invoice',
      total: Math.round(order.total * 100),
      custom_fields: [{ name: 'PO number', value: 'PO-4471' }],
      metadata: { orderId, environment: 'sandbox' },
    });
    expect((invoice?.due_date ?? 0) - (invoice?.status_transitions.finalized_at ?? 0)).toBe(15 * 86_400);
    expect(invoice?.lines.data.map((line) => line.description)).toEqual([
      expect.stringContaining('(SKU GLV-NIT-M-100)'),
      expect.stringContaining('(SKU PPR-LTR-5000)'),
      ...(invoice?.lines.data.some((line) => line.description === 'Shipping') ? ['Shipping'] : []),
      ...(invoice?.lines.data.some((line) => line.description === 'Sales tax') ? ['Sales tax'] : []),
    ]);
    const record = await invoicing().issue(orderId);
    expect(record).toMatchObject({
      id: invoiceIdFor(orderId),
      stripeInvoiceId: invoice?.id,
      number: invoice?.number,
      status: 'open',
      totalCents: invoice?.total,
      hostedInvoiceUrl: invoice?.hosted_invoice_url,
    });
    expect(stack.metricLines.some((line) => METRIC.invoicesIssued in line)).toBe(true);
  });

  const steps = [
    ['create', (op: string) => op === 'POST /v1/invoices'],
    ['add lines', (op: string) => op.endsWith('/add_lines')],
    ['finalize', (op: string) => op.endsWith('/finalize')],
  ] as const;
  for (const [step, matches] of steps) {
    for (const mode of ['fail', 'lose'] as const) {
      it(`leaves exactly one invoice when Stripe's ${step} ${mode === 'fail' ? 'fails' : 'answer is lost'}, then the message is retried`, async () => {
        const { orderId, customerId } = await aShippedOrder();
        plan.reset();
        plan.when((call) => call.service === 'stripe' && matches(call.operation), mode);

        const polled = await stack.consumers.invoicing.pollOnce();
        expect(polled.failed).toHaveLength(1);
        expect(plan.injected).toHaveLength(1);
        const record = await invoicing().issue(orderId);

        const invoices = await invoicesOf(customerId);
        expect(invoices.map((invoice) => invoice.id)).toEqual([record.stripeInvoiceId]);
        expect(invoices[0]).toMatchObject({ status: 'open', total: record.totalCents });
      });
    }
  }

  it('leaves exactly one invoice when recording it fails after Stripe finalized it, then the message is retried', async () => {
    const { orderId, customerId } = await aShippedOrder();
    plan.reset();
    plan.when(
      (call) =>
        call.service === 'dynamodb' && call.operation === 'TransactWriteItems' && call.target.includes('orders'),
      'lose',
    );

    expect((await stack.consumers.invoicing.pollOnce()).failed).toHaveLength(1);
    const record = await invoicing().issue(orderId);

    expect((await invoicesOf(customerId)).map((invoice) => invoice.id)).toEqual([record.stripeInvoiceId]);
    expect(record.version).toBe(1);
  });

  it('gives two concurrent deliveries of one shipment one invoice', async () => {
    const { orderId, customerId } = await aShippedOrder();
    plan.reset();
    const [first, second] = await Promise.allSettled([invoicing().issue(orderId), invoicing().issue(orderId)]);
    const retried =
      first.status === 'fulfilled' && second.status === 'fulfilled' ? undefined : await invoicing().issue(orderId);
    expect(await invoicesOf(customerId)).toHaveLength(1);
    expect(retried ?? (first.status === 'fulfilled' ? first.value : undefined)).toBeDefined();
  });
});

describe('crediting refunds of an invoiced order', () => {
  it('issues a credit note per partial refund, adding up to the total and never above it', async () => {
    const { orderId, bearer, order } = await aShippedOrder();
    plan.reset();
    await stack.consumers.invoicing.pollOnce();
    await stack.post(`/v1/sandbox/orders/${orderId}/deliver`, {}, bearer);
    expect((await stack.post(`/v1/sandbox/orders/${orderId}/refund`, { amount: 10 }, bearer)).status).toBe(200);
    expect((await stack.post(`/v1/sandbox/orders/${orderId}/refund`, {}, bearer)).status).toBe(200);
    await relay();
    while ((await stack.consumers.invoicing.pollOnce()).received > 0);

    const record = await invoicing().issue(orderId);
    const totalCents = Math.round(order.total * 100);
    // Both refunds' messages arrive in one batch and are credited side by side, in either order.
    const byAmount = (a: number, b: number) => a - b;
    expect(record.creditNotes.map((note) => note.amountCents).sort(byAmount)).toEqual(
      [1000, totalCents - 1000].sort(byAmount),
    );
    expect(record).toMatchObject({ amountCreditedCents: totalCents, amountDueCents: 0 });
    const notes = await stripeStandIn().creditNotes.list({ invoice: record.stripeInvoiceId });
    expect(notes.data.map((note) => note.amount).sort(byAmount)).toEqual([1000, totalCents - 1000].sort(byAmount));
  });
});
