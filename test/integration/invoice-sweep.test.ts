/**
 * The invoice sweep: a shipped order whose invoicing message was lost is invoiced by the
 * next run once it shipped over a minute ago, through the consumer's own idempotent path
 * (one Stripe invoice, its invoice.issued, the metric that alarms); an order invoiced
 * by its message is never swept; a run that fails for one order leaves it to the next.
 */
import { PurgeQueueCommand } from '@aws-sdk/client-sqs';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../../functions/domain/billing/invoice';
import { METRIC } from '../../functions/domain/metrics';
import type { OrderId } from '../../functions/domain/orders/order';
import { FaultPlan, startStripeFaultProxy, type StripeFaultProxy } from '../support/fault-plan';
import { stripeStandIn } from '../support/inspect';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const plan = new FaultPlan((call) => call.service === 'stripe');
let proxy: StripeFaultProxy;
let stack: TestStack;

beforeAll(async () => {
  proxy = await startStripeFaultProxy(plan);
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { STRIPE_API_BASE: proxy.url } });
});
afterAll(async () => {
  await stack?.close();
  await proxy?.close();
});

let counter = 0;

/** A sandbox order placed and shipped, its outbox relayed; the invoicing message is left in its queue. */
async function aShippedOrder() {
  counter += 1;
  const { apiKey } = await stack.createPartner();
  const bearer = { Authorization: `Bearer ${apiKey}` };
  const setup = await stack.post(
    '/v1/organizations/setup',
    aSetupRequest()
      .with({ internalOrgId: `org-swept-${counter}`, internalUserId: 'u-1' })
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build(),
    bearer,
  );
  expect(setup.status, setup.text).toBe(200);
  const placed = await stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: 'u-1', items: [{ product_id: 'GLV-NIT-M-100', quantity: 2 }] },
    bearer,
  );
  expect(placed.status, placed.text).toBe(201);
  const orderId = placed.body.order.id as OrderId;
  await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, bearer);
  expect((await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, bearer)).status).toBe(200);
  while ((await stack.orderOutbox.pollOnce()).received > 0);
  return { orderId, customerId: setup.body.data.organization.paymentCustomerId as string };
}

/** The invoicing queue's messages are gone, as a local stack killed with them in memory loses them. */
const loseInvoicingMessages = () =>
  stack.deps.aws.sqs.send(new PurgeQueueCommand({ QueueUrl: stack.queueUrls.invoicing }));

const invoicesOf = async (customerId: string): Promise<Stripe.Invoice[]> =>
  (await stripeStandIn().invoices.list({ customer: customerId, limit: 100 })).data;

const sweptCount = () =>
  stack.metricLines.reduce((sum, line) => sum + Number(line[METRIC.uninvoicedShipmentsSwept] ?? 0), 0);

describe('the invoice sweep', () => {
  it('invoices a shipped order whose invoicing message was lost, once it shipped over a minute ago, once', async () => {
    plan.reset();
    const { orderId, customerId } = await aShippedOrder();
    await loseInvoicingMessages();
    const sweptBefore = sweptCount();

    // Within its first minute the shipment is the queue's to invoice.
    stack.clock.advance(59_000);
    expect(await stack.invoiceSweep.runOnce()).toEqual({ found: 0, invoiced: 0, failed: 0 });

    stack.clock.advance(2_000);
    expect(await stack.invoiceSweep.runOnce()).toEqual({ found: 1, invoiced: 1, failed: 0 });
    const [invoice, ...others] = await invoicesOf(customerId);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ status: 'open', metadata: { orderId } });
    const record = await stack.deps.functions.invoicing.invoices.getByOrder(orderId);
    expect(record).toMatchObject({ id: invoiceIdFor(orderId), stripeInvoiceId: invoice?.id });
    expect(sweptCount() - sweptBefore).toBe(1);
    // Its invoice.issued went to the order-events queue, as the consumer's does.
    expect((await stack.consumers.orderEvents.pollOnce()).received).toBeGreaterThan(0);

    // Swept once: the next run finds nothing.
    stack.clock.advance(60_000);
    expect(await stack.invoiceSweep.runOnce()).toEqual({ found: 0, invoiced: 0, failed: 0 });
    expect(await invoicesOf(customerId)).toHaveLength(1);
  });

  it('never sweeps an order its invoicing message invoiced', async () => {
    plan.reset();
    const { customerId } = await aShippedOrder();
    while ((await stack.consumers.invoicing.pollOnce()).received > 0);
    expect(await invoicesOf(customerId)).toHaveLength(1);

    stack.clock.advance(120_000);
    expect(await stack.invoiceSweep.runOnce()).toEqual({ found: 0, invoiced: 0, failed: 0 });
  });

  it('leaves an order Stripe refuses for the next run, which invoices it; a late message then changes nothing', async () => {
    plan.reset();
    const { orderId, customerId } = await aShippedOrder();
    plan.when((call) => call.operation === 'POST /v1/invoices', 'fail');

    stack.clock.advance(61_000);
    expect(await stack.invoiceSweep.runOnce()).toEqual({ found: 1, invoiced: 0, failed: 1 });
    expect(stack.logs).toContainEqual(
      expect.objectContaining({ msg: 'uninvoiced shipment still not invoiced; the next sweep tries again', orderId }),
    );

    plan.reset();
    stack.clock.advance(60_000);
    expect(await stack.invoiceSweep.runOnce()).toEqual({ found: 1, invoiced: 1, failed: 0 });
    // The shipment's own message, still queued, finds the invoice issued.
    while ((await stack.consumers.invoicing.pollOnce()).received > 0);
    expect(await invoicesOf(customerId)).toHaveLength(1);
  });
});
