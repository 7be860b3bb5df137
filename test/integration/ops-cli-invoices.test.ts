/**
 * `ops invoices` on a local stack with the Stripe stand-in behind a fault proxy: list
 * filters by organization and status, show by invoice id or the order's short id, a
 * reissue after the invoicing failed gives the order exactly one invoice however often it
 * runs, bad option values are refused with their format, and another partner's
 * organization names nothing, and an order not shipped is never invoiced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import type { OrderId } from '../../functions/domain/orders/order';
import { runOpsCapturing } from '../support/ops-run';
import { FaultPlan, startStripeFaultProxy, type StripeFaultProxy } from '../support/fault-plan';
import { stripeStandIn } from '../support/inspect';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';

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

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps, separateErrors: true });

let counter = 0;

async function aPartner() {
  const { apiKey, partnerId } = await stack.createPartner();
  return { partnerId, bearer: { Authorization: `Bearer ${apiKey}` } };
}

async function anOrganization(bearer: Record<string, string>) {
  counter += 1;
  const internalOrgId = `org-ops-invoices-${counter}`;
  const setup = await stack.post(
    '/v1/organizations/setup',
    aSetupRequest()
      .with({ internalOrgId, internalUserId: 'u-1' })
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build(),
    bearer,
  );
  expect(setup.status, setup.text).toBe(200);
  return { internalOrgId, customerId: setup.body.data.organization.paymentCustomerId as string };
}

/** A sandbox order of the organization's buyer, shipped, its invoicing message queued. */
async function aShippedOrder(bearer: Record<string, string>, internalOrgId: string) {
  const placed = await stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: 'u-1', internal_org_id: internalOrgId, items: [{ product_id: 'GLV-NIT-M-100', quantity: 2 }] },
    bearer,
  );
  expect(placed.status, placed.text).toBe(201);
  const orderId = placed.body.order.id as OrderId;
  await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, bearer);
  const shipped = await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, bearer);
  expect(shipped.status, shipped.text).toBe(200);
  while ((await stack.orderOutbox.pollOnce()).received > 0);
  return orderId;
}

const invoicesOf = async (customerId: string): Promise<Stripe.Invoice[]> =>
  (await stripeStandIn().invoices.list({ customer: customerId, limit: 100 })).data;

describe('ops invoices', () => {
  it('lists a partner’s invoices, narrowed by organization and status, and shows one by id or short order id', async () => {
    plan.reset();
    const partner = await aPartner();
    const first = await anOrganization(partner.bearer);
    const second = await anOrganization(partner.bearer);
    const firstOrder = await aShippedOrder(partner.bearer, first.internalOrgId);
    expect((await stack.consumers.invoicing.pollOnce()).failed).toEqual([]);
    const secondOrder = await aShippedOrder(partner.bearer, second.internalOrgId);
    expect((await stack.consumers.invoicing.pollOnce()).failed).toEqual([]);

    const all = await ops(['invoices', 'list', '--partner', partner.partnerId, '--json']);
    expect(all.code, all.err.join('\n')).toBe(0);
    expect(all.json.invoices.map((i: { orderId: string }) => i.orderId).sort()).toEqual(
      [firstOrder, secondOrder].sort(),
    );

    const one = await ops(['invoices', 'list', '--partner', partner.partnerId, '--org', first.internalOrgId, '--json']);
    expect(one.json.invoices).toHaveLength(1);
    expect(one.json.invoices[0]).toMatchObject({ internalOrgId: first.internalOrgId, status: 'open' });
    expect(second.internalOrgId).not.toBe(first.internalOrgId);

    const paid = await ops(['invoices', 'list', '--partner', partner.partnerId, '--status', 'paid']);
    expect(paid).toMatchObject({ code: 0, lines: ['No invoices.'] });

    const text = await ops(['invoices', 'list', '--partner', partner.partnerId]);
    expect(text.lines[0]).toMatch(/^INVOICE ID\s+NUMBER\s+ORDER/);

    const byId = await ops(['invoices', 'show', '--invoice', one.json.invoices[0].id, '--json']);
    expect(byId.json).toMatchObject({ id: one.json.invoices[0].id, status: 'open' });
    const byShortOrder = await ops(['invoices', 'show', '--order', one.json.invoices[0].orderId.slice(0, 8), '--json']);
    expect(byShortOrder.err).toEqual([]);
    expect(byShortOrder.json).toEqual(byId.json);
    const shown = await ops(['invoices', 'show', '--invoice', one.json.invoices[0].id]);
    const field = (label: string) =>
      shown.lines
        .find((line) => line.startsWith(`${label}:`))
        ?.slice(label.length + 1)
        .trim();
    expect(field('total')).toBe(`$${(byId.json.totalCents / 100).toFixed(2)}`);
    expect(field('credited')).toBe('$0.00');
    expect(field('invoice page')).toBe(byId.json.hostedInvoiceUrl);
    expect(field('PDF')).toBe(byId.json.invoicePdf);
    expect(shown.lines).toContain('No credit notes.');
  });

  it('reissues an order whose invoicing failed: exactly one invoice, and a second reissue issues nothing', async () => {
    plan.reset();
    const partner = await aPartner();
    const { customerId, internalOrgId } = await anOrganization(partner.bearer);
    const orderId = await aShippedOrder(partner.bearer, internalOrgId);
    plan.when((call) => call.service === 'stripe' && call.operation.endsWith('/finalize'), 'fail');
    expect((await stack.consumers.invoicing.pollOnce()).failed).toHaveLength(1);
    // Failed for good: the message is gone from the queue (on AWS, to the dead-letter queue).
    await purgeQueues(stack);
    expect(await ops(['invoices', 'show', '--order', orderId])).toMatchObject({ code: 1 });
    plan.reset();

    const reissued = await ops(['invoices', 'reissue', '--order', orderId.slice(0, 8), '--json']);
    expect(reissued.code, reissued.err.join('\n')).toBe(0);
    expect(reissued.json).toMatchObject({ issued: true, invoice: { orderId, status: 'open' } });
    const again = await ops(['invoices', 'reissue', '--order', orderId]);
    expect(again.code).toBe(0);
    expect(again.lines[0]).toMatch(/already had invoice .*nothing new issued/);

    const invoices = await invoicesOf(customerId);
    expect(invoices.map((invoice) => invoice.status)).toEqual(['open']);
    expect(invoices[0]?.id).toBe(reissued.json.invoice.stripeInvoiceId);
  });

  it('refuses bad option values with their format, an order not shipped, and another partner’s organization', async () => {
    const partner = await aPartner();
    const other = await aPartner();
    const { internalOrgId, customerId } = await anOrganization(other.bearer);

    const status = await ops(['invoices', 'list', '--partner', partner.partnerId, '--status', 'unpaid']);
    expect(status.code).toBe(1);
    expect(status.err.join('\n')).toMatch(/--status/);
    const order = await ops(['invoices', 'reissue', '--order', 'xyz']);
    expect(order.code).toBe(1);
    expect(order.err.join('\n')).toContain('e.g. 23a38da1');
    const both = await ops(['invoices', 'show']);
    expect(both.code).toBe(2);
    expect(both.err[0]).toMatch(/exactly one of --invoice and --order/);

    const placed = await stack.post(
      '/v1/sandbox/orders',
      {
        internal_user_id: 'u-1',
        internal_org_id: internalOrgId,
        items: [{ product_id: 'GLV-NIT-M-100', quantity: 1 }],
      },
      other.bearer,
    );
    expect(placed.status, placed.text).toBe(201);
    const unshipped = await ops(['invoices', 'reissue', '--order', placed.body.order.id]);
    expect(unshipped.code).toBe(1);
    expect(unshipped.err.join('\n')).toContain('only shipped and delivered orders are invoiced');
    expect((await ops(['order', 'cancel', '--order', placed.body.order.id, '--reason', 'Ordered twice'])).code).toBe(0);
    const cancelled = await ops(['invoices', 'reissue', '--order', placed.body.order.id]);
    expect(cancelled.code).toBe(1);
    expect(cancelled.err).toEqual([
      `Error: Order ${placed.body.order.id} is cancelled: only shipped and delivered orders are invoiced, so there is nothing to reissue`,
    ]);
    expect(await invoicesOf(customerId)).toEqual([]);

    const foreign = await ops(['invoices', 'list', '--partner', partner.partnerId, '--org', internalOrgId]);
    expect(foreign.code).toBe(1);
    expect(foreign.err.join('\n')).toContain(`has no organization ${internalOrgId}`);
  });
});
