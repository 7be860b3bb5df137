/**
 * GET /v1/invoices and GET /v1/invoices/{invoice_id} on the local stack: a partner reads its
 * organizations' invoices (the object the invoice.* webhooks carry), paged like orders, by
 * status or order; bad parameters are 400 with details; another partner's invoice or
 * organization is 404.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDocumentClient } from '../../functions/adapters/aws/dynamodb-client';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import { type InvoiceRecord, invoiceIdFor } from '../../functions/domain/billing/invoice';
import { invoiceIssuedEvent } from '../../functions/domain/events/invoice-events';
import { tableName } from '../../functions/resources/resource-definitions';
import { anOrderingPartner, anItem, importDriftProducts, type OrderingPartner } from '../support/order-pipeline';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
let invoices: DynamoInvoiceRepository;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await importDriftProducts(stack);
  invoices = new DynamoInvoiceRepository(
    createDocumentClient(inject('standIns').endpoints.dynamodb),
    tableName(stack.config.RESOURCE_PREFIX, 'orders'),
    stack.clock,
  );
});
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

async function get(path: string, headers: Record<string, string>): Promise<TestResponse> {
  const response = await fetch(`${stack.url}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

/** An order placed through the sandbox, and its invoice recorded as the invoicing records it (issued `minute` minutes in). */
async function anInvoicedOrder(
  partner: OrderingPartner,
  minute: number,
  status: InvoiceRecord['status'] = 'open',
  extra: Partial<InvoiceRecord> = {},
): Promise<InvoiceRecord> {
  const placed = await stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-1999', 2)] },
    partner.bearer,
  );
  expect(placed.status).toBe(201);
  const orderId: string = placed.body.order.id;
  const at = new Date(Date.UTC(2036, 10, 22, 12, minute)).toISOString();
  const record: InvoiceRecord = {
    id: invoiceIdFor(orderId),
    orderId,
    partnerId: partner.partnerId,
    organizationId: partner.buyer.organization.id,
    internalOrgId: partner.buyer.organization.internalOrgId,
    stripeInvoiceId: `in_${randomUUID().slice(0, 8)}`,
    number: `A1B2C3D4-000${minute}`,
    status,
    totalCents: 3998,
    amountDueCents: status === 'paid' ? 0 : 3998,
    amountPaidCents: status === 'paid' ? 3998 : 0,
    amountCreditedCents: 0,
    dueDate: '2036-12-22T12:05:00.000Z',
    hostedInvoiceUrl: 'http://127.0.0.1:12111/hosted/invoices/in_1',
    invoicePdf: 'http://127.0.0.1:12111/hosted/invoices/in_1/pdf',
    creditNotes: [],
    issuedAt: at,
    updatedAt: at,
    version: 1,
    ...extra,
  };
  await invoices.record(record);
  return record;
}

const idsOf = (response: TestResponse): string[] => response.body.data.map((invoice: { id: string }) => invoice.id);

describe('GET /v1/invoices/{invoice_id}', () => {
  it('answers an invoice recorded before its lines and amounts were copied, with null for them', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const invoice = await anInvoicedOrder(partner, 1);
    const response = await get(`/v1/invoices/${invoice.id}`, partner.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'invoice',
      id: invoice.id,
      order_id: invoice.orderId,
      partner_org_id: partner.buyer.organization.internalOrgId,
      number: 'A1B2C3D4-0001',
      status: 'open',
      po_number: null,
      subtotal: null,
      tax: null,
      shipping: null,
      total: 39.98,
      amount_due: 39.98,
      amount_paid: 0,
      amount_credited: 0,
      lines: null,
      due_date: '2036-12-22T12:05:00.000Z',
      paid_at: null,
      hosted_invoice_url: invoice.hostedInvoiceUrl,
      invoice_pdf: invoice.invoicePdf,
      credit_notes: [],
      created: invoice.issuedAt,
    });
    expect(response.body).toEqual((invoiceIssuedEvent(invoice).data as { invoice: unknown }).invoice);
  });

  it('answers the lines, tax, shipping, paid time and credit notes a practice files, as the invoice.* webhooks carry them', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const invoice = await anInvoicedOrder(partner, 3, 'paid', {
      poNumber: 'PO-77',
      subtotalCents: 3998,
      taxCents: 0,
      shippingCents: 0,
      lines: [
        { description: 'Drift gloves', sku: 'DRIFT-1999', quantity: 2, unitAmountCents: 1999, amountCents: 3998 },
      ],
      amountDueCents: 0,
      amountPaidCents: 2998,
      amountCreditedCents: 1000,
      paidAt: '2036-11-30T10:00:00.000Z',
      creditNotes: [
        {
          id: 'cn_1',
          refundSequence: 4,
          amountCents: 1000,
          createdAt: '2036-11-25T09:00:00.000Z',
          number: 'A1B2C3D4-0003-CN-01',
          pdf: 'http://127.0.0.1:12111/hosted/credit_notes/cn_1/pdf',
          reason: 'One box arrived damaged',
        },
        { id: 'cn_0', refundSequence: 3, amountCents: 0, createdAt: '2036-11-24T09:00:00.000Z' },
      ],
    });
    const response = await get(`/v1/invoices/${invoice.id}`, partner.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'invoice',
      po_number: 'PO-77',
      subtotal: 39.98,
      tax: 0,
      shipping: 0,
      total: 39.98,
      amount_paid: 29.98,
      amount_credited: 10,
      lines: [{ description: 'Drift gloves', sku: 'DRIFT-1999', quantity: 2, unit_amount: 19.99, amount: 39.98 }],
      paid_at: '2036-11-30T10:00:00.000Z',
      credit_notes: [
        {
          id: 'cn_1',
          number: 'A1B2C3D4-0003-CN-01',
          amount: 10,
          created: '2036-11-25T09:00:00.000Z',
          reason: 'One box arrived damaged',
          pdf: 'http://127.0.0.1:12111/hosted/credit_notes/cn_1/pdf',
        },
        // A note recorded before its number, reason and PDF were kept.
        { id: 'cn_0', number: null, amount: 0, created: '2036-11-24T09:00:00.000Z', reason: null, pdf: null },
      ],
    });
    expect(response.body).toEqual((invoiceIssuedEvent(invoice).data as { invoice: unknown }).invoice);
    const listed = await get(
      `/v1/invoices?internal_org_id=${partner.buyer.organization.internalOrgId}`,
      partner.bearer,
    );
    expect(listed.body.data).toEqual([response.body]);
  });

  it("answers 404 INVOICE_NOT_FOUND for another partner's invoice, an unknown one, and an id of another form", async () => {
    const owner = await anOrderingPartner(stack, receiver);
    const invoice = await anInvoicedOrder(owner, 2);
    const other = await anOrderingPartner(stack, receiver);
    for (const id of [
      invoice.id,
      invoiceIdFor(randomUUID()),
      'inv_nothing',
      invoice.id.toUpperCase(),
      'x'.repeat(2000),
    ]) {
      const response = await get(`/v1/invoices/${id}`, id === invoice.id ? other.bearer : owner.bearer);
      expect(response.status, id).toBe(404);
      expect(response.body).toMatchObject({ code: 'INVOICE_NOT_FOUND', details: [] });
    }
  });
});

describe('GET /v1/orders/{order_id}', () => {
  it("carries the order's invoice, the same object GET /v1/invoices/{invoice_id} answers, or null before one is issued", async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const invoice = await anInvoicedOrder(partner, 5);
    const invoiced = await get(`/v1/orders/${invoice.orderId}`, partner.bearer);
    expect(invoiced.status).toBe(200);
    expect(invoiced.body.invoice).toEqual((await get(`/v1/invoices/${invoice.id}`, partner.bearer)).body);
    expect(invoiced.body.invoice).toMatchObject({ id: invoice.id, status: 'open', total: 39.98 });

    const placed = await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-1999', 1)] },
      partner.bearer,
    );
    const uninvoiced = await get(`/v1/orders/${placed.body.order.id}`, partner.bearer);
    expect(uninvoiced.status).toBe(200);
    expect(uninvoiced.body.invoice).toBeNull();
  });
});

describe('GET /v1/invoices', () => {
  it("lists an organization's invoices newest first, a page at a time, by status and by order", async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const made = [
      await anInvoicedOrder(partner, 1),
      await anInvoicedOrder(partner, 2, 'paid'),
      await anInvoicedOrder(partner, 3),
    ];
    const [oldest, paid, newest] = made as [InvoiceRecord, InvoiceRecord, InvoiceRecord];
    const org = partner.buyer.organization.internalOrgId;
    const first = await get(`/v1/invoices?internal_org_id=${org}&limit=2&utm=ignored`, partner.bearer);
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual([newest.id, paid.id]);
    expect(first.body.has_more).toBe(true);
    const rest = await get(`/v1/invoices?internal_org_id=${org}&limit=2&starting_after=${paid.id}`, partner.bearer);
    expect(idsOf(rest)).toEqual([oldest.id]);
    expect(rest.body.has_more).toBe(false);
    expect(idsOf(await get(`/v1/invoices?internal_org_id=${org}&status=paid`, partner.bearer))).toEqual([paid.id]);
    const byOrder = await get(
      `/v1/invoices?internal_org_id=${org}&order_id=${oldest.orderId.toUpperCase()}`,
      partner.bearer,
    );
    expect(byOrder.body).toEqual({ data: [expect.objectContaining({ id: oldest.id })], has_more: false });
    const none = await get(`/v1/invoices?internal_org_id=${org}&order_id=${randomUUID()}`, partner.bearer);
    expect(none.body).toEqual({ data: [], has_more: false });
  });

  it('answers 400 VALIDATION_ERROR with every problem in details', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const org = partner.buyer.organization.internalOrgId;
    const cases: Array<[string, string]> = [
      ['', 'internal_org_id'],
      [`internal_org_id=${org}&status=late`, 'status'],
      [`internal_org_id=${org}&order_id=nope`, 'order_id'],
      [`internal_org_id=${org}&limit=0`, 'limit'],
      [`internal_org_id=${org}&limit=101`, 'limit'],
      [`internal_org_id=${org}&limit=abc`, 'limit'],
      [`internal_org_id=${org}&starting_after=${'x'.repeat(2000)}`, 'starting_after'],
      [`internal_org_id=${org}&starting_after=${invoiceIdFor(randomUUID())}`, 'starting_after'],
      [
        `internal_org_id=${org}&order_id=${randomUUID()}&starting_after=${invoiceIdFor(randomUUID())}`,
        'starting_after',
      ],
    ];
    for (const [query, field] of cases) {
      const response = await get(`/v1/invoices?${query}`, partner.bearer);
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(
        response.body.details.map((d: { path: string[] }) => d.path[0]),
        query,
      ).toContain(field);
    }
    const both = await get(`/v1/invoices?internal_org_id=${org}&status=late&limit=0`, partner.bearer);
    expect(both.body.details).toHaveLength(2);
  });

  it('answers 404 for an organization of another partner, even with the same internal_org_id, and lists nothing of it', async () => {
    const owner = await anOrderingPartner(stack, receiver);
    await anInvoicedOrder(owner, 4);
    const other = await anOrderingPartner(stack, receiver);
    const response = await get(`/v1/invoices?internal_org_id=${owner.buyer.organization.internalOrgId}`, other.bearer);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('ORGANIZATION_NOT_FOUND');
  });

  it('needs orders:read', async () => {
    const narrow = await stack.createPartner({ scopes: ['organization:write', 'session:write'] });
    const bearer = { Authorization: `Bearer ${narrow.apiKey}` };
    for (const path of ['/v1/invoices?internal_org_id=x', `/v1/invoices/${invoiceIdFor(randomUUID())}`]) {
      const refused = await get(path, bearer);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    }
  });
});

describe('GET /v1/organizations/{internalOrgId}/statement', () => {
  const DAY = 24 * 3600 * 1000;
  const NOW = new Date('2037-03-15T18:00:00.000Z');
  const due = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

  it('answers the open invoices oldest first, what they total and what is overdue by age from the due date', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const orgId = partner.buyer.organization.internalOrgId;
    await anInvoicedOrder(partner, 1, 'paid', { dueDate: due(-100) });
    const credited = await anInvoicedOrder(partner, 2, 'open', {
      dueDate: due(10),
      amountCreditedCents: 1000,
      amountDueCents: 2998,
    });
    const late5 = await anInvoicedOrder(partner, 3, 'overdue', { dueDate: due(-5) });
    // Open on Stripe's word, past due on the clock's: its age counts all the same.
    const late45 = await anInvoicedOrder(partner, 4, 'open', { dueDate: due(-45) });
    const late75 = await anInvoicedOrder(partner, 5, 'overdue', { dueDate: due(-75) });
    const late120 = await anInvoicedOrder(partner, 6, 'overdue', { dueDate: due(-120) });
    const dueToday = await anInvoicedOrder(partner, 7, 'open', { dueDate: due(0) });
    await anInvoicedOrder(partner, 8, 'void', { dueDate: due(-40) });
    const start = stack.clock.now();
    stack.clock.set(NOW);
    try {
      const response = await get(`/v1/organizations/${orgId}/statement`, partner.bearer);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        object: 'statement',
        internal_org_id: orgId,
        as_of: NOW.toISOString(),
        total_due: 229.88,
        overdue: { days_1_30: 39.98, days_31_60: 39.98, days_61_90: 39.98, over_90: 39.98 },
      });
      expect(response.body.invoices.map((invoice: { id: string }) => invoice.id)).toEqual(
        [credited, late5, late45, late75, late120, dueToday].map((invoice) => invoice.id),
      );
      expect(response.body.invoices[0]).toMatchObject({ amount_due: 29.98, amount_credited: 10, object: 'invoice' });
      // 31 days on, the one due in ten days is 21 days late, the one due today 31, and the others have aged.
      stack.clock.set(new Date(NOW.getTime() + 31 * DAY));
      const later = await get(`/v1/organizations/${orgId}/statement`, partner.bearer);
      expect(later.body.overdue).toEqual({ days_1_30: 29.98, days_31_60: 79.96, days_61_90: 39.98, over_90: 79.96 });
    } finally {
      stack.clock.set(start);
    }
  });

  it('answers nothing owed for an organization without invoices, and 404 for another partner’s', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const other = await anOrderingPartner(stack, receiver);
    await anInvoicedOrder(other, 1, 'overdue');
    const response = await get(
      `/v1/organizations/${partner.buyer.organization.internalOrgId}/statement`,
      partner.bearer,
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      total_due: 0,
      overdue: { days_1_30: 0, days_31_60: 0, days_61_90: 0, over_90: 0 },
      invoices: [],
    });
    // Another partner's organization is none of this partner's, as is an unknown one.
    for (const [orgId, bearer] of [
      [partner.buyer.organization.internalOrgId, other.bearer],
      [`nobody-${randomUUID()}`, partner.bearer],
    ] as const) {
      const refused = await get(`/v1/organizations/${orgId}/statement`, bearer);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
    }
  });
});
