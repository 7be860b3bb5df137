/**
 * Billing in the procurement module, over HTTP as a browser without script: the order
 * page's Invoice section and the Invoices page (filter, paging, total open, overdue rows),
 * each within the signed-in user's organization only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDocumentClient } from '../../functions/adapters/aws/dynamodb-client';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import { type InvoiceRecord, invoiceIdFor } from '../../functions/domain/billing/invoice';
import type { ProductId } from '../../functions/domain/catalog/product';
import { type Cents, formatUsd } from '../../functions/domain/money';
import type { Order } from '../../functions/domain/orders/order';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { tableName } from '../../functions/resources/resource-definitions';
import { unescapeHtml } from '../support/module-browser';
import { signInToModule, type ModuleClient } from '../support/module-client';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let invoices: DynamoInvoiceRepository;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  invoices = new DynamoInvoiceRepository(
    createDocumentClient(inject('standIns').endpoints.dynamodb),
    tableName(stack.config.RESOURCE_PREFIX, 'orders'),
    stack.clock,
  );
});
afterAll(() => stack.close());

const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-12-05T17:00:00.000Z',
};

async function anOrder(buyer: ProvisionedProfile, ship = true): Promise<Order> {
  const scope = { partnerId: partner.partnerId, organizationId: buyer.organization.id };
  const order = await stack.deps.orderService.placeOrder({
    partner: { id: partner.partnerId },
    profile: buyer.profile,
    organization: (await stack.deps.organizations.getOrganization(
      partner.partnerId,
      buyer.organization.internalOrgId,
    ))!,
    items: [{ productId: 'GLV-NIT-M-100' as ProductId, quantity: 1 }],
  });
  if (!ship) return order;
  await stack.deps.orderService.transition(order.id, 'confirm', {}, scope);
  return stack.deps.orderService.transition(order.id, 'ship', SHIPMENT, scope);
}

/** Records the invoice the invoicing consumer would for `order`, issued `minute` minutes into Dec 1, 2036. */
async function invoiced(
  order: Order,
  minute: number,
  status: InvoiceRecord['status'] = 'open',
  amountDueCents = status === 'paid' ? 0 : order.totalCents,
  extra: Partial<InvoiceRecord> = {},
): Promise<InvoiceRecord> {
  const at = new Date(Date.UTC(2036, 11, 1, 12, minute)).toISOString();
  const invoice: InvoiceRecord = {
    id: invoiceIdFor(order.id),
    orderId: order.id,
    partnerId: partner.partnerId,
    organizationId: order.organizationId,
    internalOrgId: order.internalOrgId,
    stripeInvoiceId: `in_${order.id.slice(0, 8)}`,
    number: `ACME-${String(minute).padStart(4, '0')}`,
    status,
    totalCents: order.totalCents,
    amountDueCents,
    amountPaidCents: status === 'paid' ? order.totalCents : 0,
    amountCreditedCents: 0,
    // 18:00 UTC is noon in Chicago (the buyer's Texas location).
    dueDate: '2036-12-31T18:00:00.000Z',
    hostedInvoiceUrl: `http://127.0.0.1:12111/stand-in/invoices/in_${minute}`,
    invoicePdf: `http://127.0.0.1:12111/stand-in/invoices/in_${minute}/pdf`,
    creditNotes: [],
    issuedAt: at,
    updatedAt: at,
    version: 1,
    ...extra,
  };
  await invoices.record(invoice);
  return invoice;
}

async function anOffice(): Promise<{ buyer: ProvisionedProfile; module: ModuleClient }> {
  const buyer = await provisionProfile(stack.deps, partner.partnerId);
  return { buyer, module: await signInToModule(stack, partner, buyer) };
}

const rowsOf = (text: string) => [...text.matchAll(/<li[^>]*data-testid="invoice-row"[^>]*>(.*?)<\/li>/gs)];
const numbersIn = (text: string) => rowsOf(text).map((m) => /Invoice (ACME-\d+)/.exec(m[1] as string)?.[1]);

describe("the order page's Invoice section", () => {
  it('shows nothing before the order ships, then "No invoice yet", then the invoice', async () => {
    const { buyer, module } = await anOffice();
    const pending = await anOrder(buyer, false);
    const before = await module.get(`${module.base}/orders/${pending.id}`);
    expect(before.status).toBe(200);
    expect(before.text).not.toContain('>Invoice</h2>');

    const shipped = await anOrder(buyer);
    const waiting = await module.get(`${module.base}/orders/${shipped.id}`);
    expect(waiting.text).toContain('<h2 id="invoice">Invoice</h2>');
    expect(waiting.text).toContain('No invoice yet');

    const invoice = await invoiced(shipped, 1);
    const page = await module.get(`${module.base}/orders/${shipped.id}`);
    expect(page.text).not.toContain('No invoice yet');
    expect(page.text).toContain('<dd data-testid="invoice-number">ACME-0001</dd>');
    expect(page.text).toContain('<span class="badge i-open" data-testid="invoice-status">Open</span>');
    expect(page.text).toContain('>Dec 31, 2036, 12:00 PM CST</time>');
    expect(page.text).toContain(`<dd data-testid="invoice-amount-due">$${(shipped.totalCents / 100).toFixed(2)}</dd>`);
    expect(page.text).toContain(
      `<a href="${invoice.hostedInvoiceUrl}" target="_blank" rel="noopener noreferrer">View invoice`,
    );
    expect(page.text).toContain(
      `<a href="${invoice.invoicePdf}" target="_blank" rel="noopener noreferrer">Download PDF`,
    );
  });

  it('says each status in words', async () => {
    const { buyer, module } = await anOffice();
    for (const [status, word] of [
      ['paid', 'Paid'],
      ['overdue', 'Overdue'],
      ['void', 'Void'],
      ['uncollectible', 'Uncollectible'],
    ] as const) {
      const order = await anOrder(buyer);
      await invoiced(order, 2, status);
      const page = await module.get(`${module.base}/orders/${order.id}`);
      expect(page.text).toContain(`data-testid="invoice-status">${word}</span>`);
    }
  });
});

describe('the Invoices page', () => {
  it('is in the header of every role', async () => {
    const body = aSetupBody();
    const approver = await provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `approver-${body.internalUserId}`,
      user: {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: `grace.${body.internalUserId}@acme.test`,
        role: 'approver',
      },
    });
    const buyer = await provisionProfile(stack.deps, partner.partnerId, body);
    for (const who of [buyer, approver]) {
      const module = await signInToModule(stack, partner, who);
      const home = await module.get(module.base);
      expect(home.text).toContain(`<a href="${module.base}/invoices">Invoices</a>`);
      const page = await module.get(`${module.base}/invoices`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<a href="${module.base}/invoices" aria-current="page">Invoices</a>`);
    }
  });

  it('says when there are no invoices yet, with nothing to pay', async () => {
    const { module } = await anOffice();
    const page = await module.get(`${module.base}/invoices`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('No invoices yet');
    expect(page.text).toMatch(/data-testid="open-total">\$0\.00<\/strong><span class="meta">Nothing to pay/);
  });

  it('lists the organization’s invoices newest first with the total open at the top; overdue rows carry the word', async () => {
    const { buyer, module } = await anOffice();
    const [a, b, c, d] = [await anOrder(buyer), await anOrder(buyer), await anOrder(buyer), await anOrder(buyer)];
    await invoiced(a!, 1, 'paid');
    await invoiced(b!, 2, 'overdue', 1000);
    await invoiced(c!, 3, 'open', 2550);
    await invoiced(d!, 4, 'void', 0);

    const page = await module.get(`${module.base}/invoices`);
    expect(numbersIn(page.text)).toEqual(['ACME-0004', 'ACME-0003', 'ACME-0002', 'ACME-0001']);
    expect(page.text).toMatch(/data-testid="open-total">\$35\.50<\/strong>/);
    expect(page.text.replace(/<[^>]+>/g, '')).toContain('on 2 unpaid invoices, ');
    const overdue = rowsOf(page.text).find((m) => (m[1] as string).includes('ACME-0002'))!;
    expect(overdue[0]).toMatch(/^<li class="overdue"/);
    expect(overdue[1]).toContain('data-testid="invoice-status">Overdue</span>');
    expect(overdue[1]).toContain(`<a href="${module.base}/orders/${b!.id}">Order ${b!.id.slice(0, 8)}</a>`);
  });

  it('shows each invoice’s paid and credited amounts, its due date as a date, its links (Pay now only while owed) and the total due with what is overdue', async () => {
    const { buyer, module } = await anOffice();
    const [a, b] = [await anOrder(buyer), await anOrder(buyer)];
    await invoiced(a!, 1, 'paid', 0, { dueDate: '2036-10-01T18:00:00.000Z' });
    // Past due on the clock in the organization's zone, $2.50 credited.
    await invoiced(b!, 2, 'overdue', b!.totalCents - 250, {
      dueDate: '2036-10-15T18:00:00.000Z',
      amountCreditedCents: 250,
      poNumber: 'PO-7731',
    });
    const page = await module.get(`${module.base}/invoices`);
    const text = (html: string) => unescapeHtml(html.replace(/<[^>]+>/g, ''));
    const owed = formatUsd((b!.totalCents - 250) as Cents);
    expect(text(page.text)).toContain(`Total due${owed}on 1 unpaid invoice, ${owed} overdue`);
    const [paidRow, overdueRow] = [...rowsOf(page.text)].reverse().map((m) => m[1] as string);
    expect(text(paidRow!)).toContain(`Paid ${formatUsd(a!.totalCents)} · Credited $0.00`);
    expect(text(overdueRow!)).toContain('Paid $0.00 · Credited $2.50 · PO PO-7731');
    expect(text(overdueRow!)).toContain('Due Oct 15, 2036');
    expect(overdueRow).toContain('href="http://127.0.0.1:12111/stand-in/invoices/in_2/pdf"');
    expect(text(overdueRow!)).toMatch(/View invoice.*Download PDF.*Pay now/);
    expect(text(paidRow!)).toMatch(/View invoice.*Download PDF/);
    expect(paidRow).not.toContain('Pay now');
  });

  it('finds invoices by invoice or PO number, says how many matched and offers the way back', async () => {
    const { buyer, module } = await anOffice();
    const [a, b, c] = [await anOrder(buyer), await anOrder(buyer), await anOrder(buyer)];
    await invoiced(a!, 11, 'open', undefined, { poNumber: 'PO-555' });
    await invoiced(b!, 12);
    await invoiced(c!, 13, 'open', undefined, { poNumber: 'po-0012-b' });
    const byNumber = await module.get(`${module.base}/invoices?q=${encodeURIComponent('acme-0012')}`);
    expect(byNumber.status).toBe(200);
    // Any case; the PO number po-0012-b does not hold "acme-0012".
    expect(numbersIn(byNumber.text)).toEqual(['ACME-0012']);
    expect(byNumber.text).toMatch(/data-testid="search-result"[^>]*>1 invoice matches “acme-0012”/);
    expect(byNumber.text).toContain(`<a href="${module.base}/invoices">Show all invoices</a>`);
    expect(byNumber.text).toContain('value="acme-0012"');
    const byPo = await module.get(`${module.base}/invoices?q=PO-`);
    expect(numbersIn(byPo.text)).toEqual(['ACME-0013', 'ACME-0011']);
    expect(byPo.text).toContain('2 invoices match “PO-”');
    const none = await module.get(`${module.base}/invoices?q=nothing-like-it`);
    expect(none.text).toContain('0 invoices match “nothing-like-it”');
  });

  it('filters by status like the Orders page, and refuses a status not in the list', async () => {
    const { buyer, module } = await anOffice();
    await invoiced(await anOrder(buyer), 1, 'paid');
    await invoiced(await anOrder(buyer), 2, 'overdue');
    await invoiced(await anOrder(buyer), 3, 'open');

    expect(numbersIn((await module.get(`${module.base}/invoices?status=overdue`)).text)).toEqual(['ACME-0002']);
    expect(numbersIn((await module.get(`${module.base}/invoices?status=open`)).text)).toEqual(['ACME-0003']);
    expect(numbersIn((await module.get(`${module.base}/invoices?status=paid`)).text)).toEqual(['ACME-0001']);
    expect(numbersIn((await module.get(`${module.base}/invoices?status=`)).text)).toHaveLength(3);
    const filtered = await module.get(`${module.base}/invoices?status=paid`);
    expect(filtered.text).toContain('<option value="paid" selected>Paid</option>');

    for (const junk of ['void', 'PAID', 'all%00', '%3Cscript%3E']) {
      const refused = await module.get(`${module.base}/invoices?status=${junk}`);
      expect(refused.status, junk).toBe(400);
      expect(refused.text).toContain('Please check that');
    }
  });

  it('says when no invoice has the chosen status', async () => {
    const { buyer, module } = await anOffice();
    await invoiced(await anOrder(buyer), 1, 'open');
    const page = await module.get(`${module.base}/invoices?status=paid`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('No paid invoices');
    expect(page.text).toContain(`<a href="${module.base}/invoices">Show all invoices</a>`);
  });

  it('pages 20 at a time, keeping the filter', async () => {
    const { buyer, module } = await anOffice();
    for (let minute = 1; minute <= 21; minute += 1) await invoiced(await anOrder(buyer), minute, 'open');
    const first = await module.get(`${module.base}/invoices?status=open`);
    expect(numbersIn(first.text)).toHaveLength(20);
    const older = /<a class="button" href="([^"]+)">Older invoices<\/a>/
      .exec(first.text)?.[1]
      ?.replaceAll('&amp;', '&');
    expect(older).toMatch(/\?status=open&after=inv_/);
    const second = await module.get(older!);
    expect(numbersIn(second.text)).toEqual(['ACME-0001']);
    expect(second.text).not.toContain('Older invoices');
  });
});

describe("another organization's invoices", () => {
  it('are neither listed, nor shown on their order, nor usable as a page cursor', async () => {
    const mine = await anOffice();
    const theirs = await anOffice();
    const myInvoice = await invoiced(await anOrder(mine.buyer), 1, 'open');
    const theirOrder = await anOrder(theirs.buyer);
    const theirInvoice = await invoiced(theirOrder, 2, 'overdue');

    const list = await mine.module.get(`${mine.module.base}/invoices`);
    expect(numbersIn(list.text)).toEqual([myInvoice.number]);
    expect(list.text).not.toContain(theirInvoice.hostedInvoiceUrl);

    const order = await mine.module.get(`${mine.module.base}/orders/${theirOrder.id}`);
    expect(order.status).toBe(404);
    expect(order.text).not.toContain(theirInvoice.number);

    const cursor = await mine.module.get(`${mine.module.base}/invoices?after=${theirInvoice.id}`);
    expect(cursor.status).toBe(400);
    expect(cursor.text).not.toContain(theirInvoice.number);
  });
});
