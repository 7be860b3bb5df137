/**
 * Sales tax from Stripe Tax on the local stack (docs/billing.md, "Sales tax"): for each of the stand-in's documented
 * addresses, and for a tax-exempt organization, the tax checkout shows is the placed order's and the invoice's, to the
 * cent, from one Stripe Tax calculation per cart and address, recorded as a tax transaction when the order is
 * invoiced. When Stripe Tax cannot answer, nothing is placed: 503 SALES_TAX_UNAVAILABLE on the API, a page that says
 * so in the module.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../functions/domain/money';
import type { OrderId } from '../../functions/domain/orders/order';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aProduct } from '../support/catalog-fixtures';
import { FaultySalesTax } from '../support/fault-injection';
import { stripeStandIn } from '../support/inspect';
import { unescapeHtml } from '../support/module-browser';
import { signInToModule } from '../support/module-client';
import type { ProvisionedProfile } from '../support/provisioned-profile';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const salesTax = new FaultySalesTax();
let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
const GAUZE = aProduct('TAX-GAUZE', { priceCents: 4000 as Cents });
const bearer = () => ({ Authorization: `Bearer ${partner.apiKey}` });
const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-11-25T17:00:00.000Z',
};

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, salesTax });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GAUZE]);
});
afterAll(() => stack.close());

/** A buyer set up through the API, shipping to `address` only, with $40.00 of gauze in the cart. */
async function aBuyer(
  address: Record<string, string>,
  fields: Record<string, unknown> = {},
  user: Record<string, unknown> = {},
) {
  const body = aSetupRequest()
    .with(fields)
    .withLocations({ internalShippingLocationId: 'clinic', name: 'Clinic', address, isDefault: true })
    .build();
  body.user = { ...body.user, ...user };
  const setup = await stack.post('/v1/organizations/setup', body, bearer());
  expect(setup.status, setup.text).toBe(200);
  const profileId = setup.body.data.profile.id;
  await stack.deps.cartService.add(profileId, GAUZE.productId, 1);
  const module = await signInToModule(stack, partner, { profile: { id: profileId } } as ProvisionedProfile);
  return {
    profileId,
    organizationId: setup.body.data.organization.id,
    internalOrgId: body.internalOrgId as string,
    internalUserId: body.internalUserId,
    module,
  };
}

const summaryOf = (text: string) => unescapeHtml(/<aside[^>]*>([\s\S]*?)<\/aside>/.exec(text)?.[1] ?? '');
const ordersOf = async (organizationId: string) =>
  (await stack.deps.orders.listByOrganization(organizationId as never)).orders;

/** The invoice of a shipped order, as Stripe holds it: its `Sales tax` line (0 when it has none) and its total. */
async function invoiceOf(orderId: OrderId) {
  const scope = { partnerId: partner.partnerId };
  await stack.deps.orderService.transition(orderId, 'confirm', {}, scope);
  await stack.deps.orderService.transition(orderId, 'ship', SHIPMENT, scope);
  const record = await stack.deps.functions.invoicing.invoicing.issue(orderId);
  const invoice = await stripeStandIn().invoices.retrieve(record.stripeInvoiceId);
  const taxLine = invoice.lines.data.find((line) => line.description === 'Sales tax');
  return { taxCents: taxLine?.amount ?? 0, totalCents: invoice.total };
}

// $40.00 of goods and $9.95 shipping; the stand-in's combined rates (docs/billing.md), each line rounded half up.
const ADDRESSES = [
  {
    where: 'San Francisco, CA (8.625 %, shipping untaxed)',
    address: { line1: '1 Market St', city: 'San Francisco', province: 'CA', postalCode: '94105' },
    label: 'Tax (California 8.625%)',
    taxCents: 345,
  },
  {
    where: 'New York, NY (8.875 %, shipping taxed)',
    address: { line1: '5 Broadway', city: 'New York', province: 'NY', postalCode: '10004' },
    label: 'Tax (New York 8.875%)',
    taxCents: 355 + 88,
  },
  {
    where: 'Austin, TX (8.25 %, shipping taxed)',
    address: { line1: '100 Congress Ave', city: 'Austin', province: 'TX', postalCode: '78701' },
    label: 'Tax (Texas 8.25%)',
    taxCents: 330 + 82,
  },
  {
    where: 'Portland, OR (no sales tax)',
    address: { line1: '1120 SW 5th Ave', city: 'Portland', province: 'OR', postalCode: '97204' },
    label: 'Tax',
    taxCents: 0,
  },
];

describe('sales tax from Stripe Tax', () => {
  it.each(ADDRESSES)(
    '$where: checkout, the order and the invoice carry the same tax, from one calculation recorded once',
    async ({ address, label, taxCents }) => {
      const { module, organizationId } = await aBuyer(address);
      const calculatedBefore = salesTax.calculated.length;
      const checkout = await module.get(`${module.base}/checkout`);
      expect(checkout.status).toBe(200);
      const summary = summaryOf(checkout.text);
      expect(summary).toContain(label);
      expect(summary).toContain(`$${(taxCents / 100).toFixed(2)}`);
      expect(summary).toContain(`$${((4000 + 995 + taxCents) / 100).toFixed(2)}`);
      // Reloading checkout and placing the order ask Stripe Tax nothing more.
      await module.get(`${module.base}/checkout`);
      const placed = await module.submit(`${module.base}/orders`, {});
      expect(placed.status).toBe(303);
      expect(salesTax.calculated.length - calculatedBefore).toBe(1);

      const [order] = await ordersOf(organizationId);
      expect([order?.taxCents, order?.totalCents]).toEqual([taxCents, 4000 + 995 + taxCents]);
      const invoice = await invoiceOf(order!.id);
      expect(invoice).toEqual({ taxCents, totalCents: order?.totalCents });
      expect(salesTax.recorded.filter((id) => id === order?.salesTax?.calculationId)).toHaveLength(1);
    },
  );

  it("charges a tax-exempt organization's checkout, order and invoice no tax, at a taxed address", async () => {
    const { module, organizationId } = await aBuyer(ADDRESSES[0]!.address, { taxExempt: true });
    const checkout = await module.get(`${module.base}/checkout`);
    expect(summaryOf(checkout.text)).toContain('Tax (exempt)');
    expect(summaryOf(checkout.text)).toContain('$49.95');
    expect((await module.submit(`${module.base}/orders`, {})).status).toBe(303);
    const [order] = await ordersOf(organizationId);
    expect([order?.taxCents, order?.totalCents]).toEqual([0, 4995]);
    expect(await invoiceOf(order!.id)).toEqual({ taxCents: 0, totalCents: 4995 });
  });

  it("gives an approved request's order the tax its requester saw at checkout, from the same calculation", async () => {
    const { module, organizationId, internalOrgId } = await aBuyer(ADDRESSES[1]!.address, {}, { orderLimit: 30 });
    const before = salesTax.calculated.length;
    expect(summaryOf((await module.get(`${module.base}/checkout`)).text)).toContain('$4.43');
    const submitted = await module.submit(`${module.base}/approvals`, {});
    expect(submitted.status).toBe(303);
    const requestId = /\/approvals\/([0-9a-f-]{36})/.exec(submitted.location ?? '')?.[1];
    const boss = aSetupRequest().forOrg(internalOrgId).forUser(`boss-${internalOrgId}`, { role: 'approver' }).build();
    expect((await stack.post('/v1/organizations/setup', boss, bearer())).status).toBe(200);
    const aggregate = await stack.deps.organizations.getOrganization(partner.partnerId, internalOrgId);
    const approver = aggregate!.profiles.find((profile) => profile.internalUserId === `boss-${internalOrgId}`)!;
    await stack.deps.approvalService.approve({ requestId: requestId!, approver });
    expect(salesTax.calculated.length - before).toBe(1);
    const [order] = await ordersOf(organizationId);
    expect([order?.taxCents, order?.totalCents]).toEqual([443, 4000 + 995 + 443]);
    expect(await invoiceOf(order!.id)).toEqual({ taxCents: 443, totalCents: 5438 });
  });

  it('asks again for a cart that changed, and for the next order of the same cart', async () => {
    const { module, profileId } = await aBuyer(ADDRESSES[2]!.address);
    const before = salesTax.calculated.length;
    await module.get(`${module.base}/checkout`);
    await stack.deps.cartService.add(profileId, GAUZE.productId, 1);
    await module.get(`${module.base}/checkout`);
    expect(salesTax.calculated.length - before).toBe(2);
    expect((await module.submit(`${module.base}/orders`, {})).status).toBe(303);
    // Same cart again: the placed order's calculation is its own, never another order's.
    await stack.deps.cartService.add(profileId, GAUZE.productId, 2);
    await module.get(`${module.base}/checkout`);
    expect(salesTax.calculated.length - before).toBe(3);
  });

  describe('when Stripe Tax cannot answer', () => {
    it('refuses a sandbox order with 503 SALES_TAX_UNAVAILABLE and places nothing', async () => {
      const { organizationId, internalUserId } = await aBuyer(ADDRESSES[1]!.address);
      salesTax.failing = true;
      try {
        const refused = await stack.post(
          '/v1/sandbox/orders',
          { internal_user_id: internalUserId, items: [{ product_id: GAUZE.productId, quantity: 1 }] },
          bearer(),
        );
        expect(refused.status, refused.text).toBe(503);
        expect(refused.body.code).toBe('SALES_TAX_UNAVAILABLE');
        expect(refused.headers.get('retry-after')).toBe('30');
      } finally {
        salesTax.failing = false;
      }
      expect(await ordersOf(organizationId)).toEqual([]);
    });

    it('shows the module a page that says so, places nothing and keeps the cart', async () => {
      const { module, profileId, organizationId } = await aBuyer(ADDRESSES[1]!.address);
      salesTax.failing = true;
      try {
        const checkout = await module.get(`${module.base}/checkout`);
        expect(checkout.status).toBe(503);
        expect(unescapeHtml(checkout.text)).toContain('Sales tax could not be calculated');
        const placed = await module.submit(`${module.base}/orders`, {});
        expect(placed.status).toBe(503);
        expect(unescapeHtml(placed.text)).toContain('nothing was ordered and your cart is unchanged');
      } finally {
        salesTax.failing = false;
      }
      expect(await ordersOf(organizationId)).toEqual([]);
      expect((await stack.deps.cartService.view(profileId as never)).lines).toHaveLength(1);
    });
  });
});
