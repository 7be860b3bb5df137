/**
 * The SDK's billing methods against a running local sandbox stack (the Stripe stand-in
 * behind it): organizations.retrieve/update, invoices.list/retrieve on an invoice issued
 * at shipment, and sandbox.invoices.pay/overdue, whose Stripe events come back through the
 * service. Each resolves to the documented body (validated against docs/openapi.json), and
 * the failures a partner branches on reject with their typed errors.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import {
  type Invoice,
  PartnerClient,
  PartnerConflictError,
  PartnerInvalidRequestError,
  PartnerNotFoundError,
} from '../../sdk/src/index';
import { schemaProblems } from '../support/api-document';
import { aSetupBody } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const PRODUCT_ID = SEED_CATALOG.find((product) => product.active)!.product_id;
const documented = (schema: string, value: unknown) =>
  schemaProblems({ $ref: `#/components/schemas/${schema}` }, value);
const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

/** A client of a new partner whose organization was set up through the SDK (so its Stripe customer exists). */
async function aBillingClient() {
  const partner = await stack.createPartner();
  const client = new PartnerClient({ apiKey: partner.apiKey, baseUrl: stack.url, sleep: async () => {} });
  const body = aSetupBody();
  await client.organizations.setup(body);
  return { client, org: body.internalOrgId, user: body.internalUserId };
}
type BillingClient = Awaited<ReturnType<typeof aBillingClient>>;

/** An order placed, confirmed and shipped through the SDK, and its invoice once the stack has issued it. */
async function aShippedOrdersInvoice({ client, org, user }: BillingClient): Promise<Invoice> {
  const placed = await client.sandbox.orders.create({
    internalUserId: user,
    items: [{ productId: PRODUCT_ID, quantity: 2 }],
  });
  if (!('order' in placed)) throw new Error('a buyer without a limit got an approval request');
  await client.sandbox.orders.confirm(placed.order.id);
  await client.sandbox.orders.ship(placed.order.id);
  return vi.waitFor(
    async () => {
      const [invoice] = await collect(client.invoices.list({ internalOrgId: org, orderId: placed.order.id }));
      expect(invoice).toBeDefined();
      return invoice as Invoice;
    },
    { timeout: 20_000, interval: 100 },
  );
}

const eventually = (client: PartnerClient, invoiceId: string, status: Invoice['status']) =>
  vi.waitFor(async () => expect((await client.invoices.retrieve(invoiceId)).status).toBe(status), {
    timeout: 10_000,
    interval: 100,
  });

describe('organizations.retrieve and organizations.update', () => {
  it("reads and changes the organization's terms and billing e-mail with the documented bodies", async () => {
    const { client, org } = await aBillingClient();
    const got = await client.organizations.retrieve(org);
    expect(documented('OrganizationResponse', got)).toEqual([]);
    expect(got.data.organization).toMatchObject({ internalOrgId: org, paymentTerms: 'net30' });

    const updated = await client.organizations.update(org, {
      paymentTerms: 'net60',
      billingEmail: 'books@acme.test',
    });
    expect(documented('OrganizationResponse', updated)).toEqual([]);
    expect(updated.data.organization).toMatchObject({ paymentTerms: 'net60', billingEmail: 'books@acme.test' });
    expect(updated.data.organization.paymentCustomerId).toBe(got.data.organization.paymentCustomerId);
    expect((await client.organizations.retrieve(org)).data.organization.paymentTerms).toBe('net60');
  });

  it("rejects unknown terms with PartnerInvalidRequestError and another partner's organization with PartnerNotFoundError", async () => {
    const { client, org } = await aBillingClient();
    const bad = client.organizations.update(org, { paymentTerms: 'net45' as 'net30' });
    await expect(bad).rejects.toBeInstanceOf(PartnerInvalidRequestError);
    await expect(bad).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    const other = await aBillingClient();
    await expect(other.client.organizations.retrieve(org)).rejects.toBeInstanceOf(PartnerNotFoundError);
    await expect(other.client.organizations.update(org, { billingEmail: 'x@acme.test' })).rejects.toBeInstanceOf(
      PartnerNotFoundError,
    );
  });
});

describe('invoices and sandbox.invoices', () => {
  it('lists and retrieves the invoice issued at shipment, pays it through Stripe, and a second pay is a conflict', async () => {
    const billing = await aBillingClient();
    const { client, org } = billing;
    const invoice = await aShippedOrdersInvoice(billing);
    expect(documented('Invoice', invoice)).toEqual([]);
    expect(invoice).toMatchObject({ partner_org_id: org, status: 'open', amount_paid: 0 });
    expect(invoice.amount_due).toBe(invoice.total);
    expect(await client.invoices.retrieve(invoice.id)).toEqual(invoice);
    // Issued by the invoicing consumer: the order's goods, tax and shipping are on it.
    expect(invoice.lines?.length).toBeGreaterThan(0);
    expect(invoice.subtotal! + invoice.tax! + invoice.shipping!).toBeCloseTo(invoice.total, 2);
    expect(invoice).toMatchObject({ object: 'invoice', paid_at: null, credit_notes: [] });
    const statement = await client.organizations.statement(org);
    expect(documented('Statement', statement)).toEqual([]);
    expect(statement).toMatchObject({ object: 'statement', internal_org_id: org, total_due: invoice.amount_due });
    expect(statement.invoices).toEqual([invoice]);

    const accepted = await client.sandbox.invoices.pay(invoice.id);
    expect(documented('SandboxInvoiceAccepted', accepted)).toEqual([]);
    expect(accepted).toMatchObject({ invoice_id: invoice.id, action: 'pay' });
    await eventually(client, invoice.id, 'paid');
    // Stripe's invoice.paid set the time it was paid.
    expect((await client.invoices.retrieve(invoice.id)).paid_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await client.invoices.retrieve(invoice.id)).toMatchObject({ amount_due: 0, amount_paid: invoice.total });

    const again = client.sandbox.invoices.pay(invoice.id);
    await expect(again).rejects.toBeInstanceOf(PartnerConflictError);
    await expect(again).rejects.toMatchObject({ code: 'INVOICE_NOT_OPEN' });
  });

  it('makes an invoice overdue, filters by status, walks every page, and 404s an unknown id', async () => {
    const billing = await aBillingClient();
    const { client, org } = billing;
    const first = await aShippedOrdersInvoice(billing);
    const second = await aShippedOrdersInvoice(billing);

    expect(await client.sandbox.invoices.overdue(second.id)).toMatchObject({
      invoice_id: second.id,
      action: 'overdue',
    });
    await eventually(client, second.id, 'overdue');

    const overdue = await collect(client.invoices.list({ internalOrgId: org, status: 'overdue' }));
    expect(overdue.map((invoice) => invoice.id)).toEqual([second.id]);
    const everyPage = await collect(client.invoices.list({ internalOrgId: org, pageSize: 1 }));
    expect(everyPage.map((invoice) => invoice.id).sort()).toEqual([first.id, second.id].sort());

    await expect(client.invoices.retrieve(`inv_${'0'.repeat(32)}`)).rejects.toBeInstanceOf(PartnerNotFoundError);
    await expect(client.sandbox.invoices.pay(`inv_${'0'.repeat(32)}`)).rejects.toBeInstanceOf(PartnerNotFoundError);
  });
});
