/**
 * Stripe's events in and the sandbox's invoice actions on a test stack: the stack registers
 * `POST /v1/stripe/events` with the Stripe stand-in at start, so an event Stripe signs
 * reaches it; a forged, unsigned or oversized one is 400 and changes nothing; a replay is
 * processed once and an older event never rolls a newer state back. The sandbox's pay and
 * overdue go to the stand-in, whose signed events come back through the route, and the
 * partner receives invoice.paid / invoice.overdue. `ops order trace` shows those requests and
 * events oldest first, `ops metrics` counts credited and overdue invoices (a partial refund is
 * no delivery), and the invoice's hosted page and PDF bill the organization as set up.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { PDFParse } from 'pdf-parse';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import { type InvoiceRecord, invoiceIdFor } from '../../functions/domain/billing/invoice';
import type { OrderId } from '../../functions/domain/orders/order';
import { tableName } from '../../functions/resources/resource-definitions';
import { type LocalLog, openLocalLog } from '../../lib/local-runtime/local-log';
import { runOps } from '../../lib/ops-cli/run-ops';
import { runOpsCapturing } from '../support/ops-run';
import { stripeStandIn } from '../support/inspect';
import { deliverEverything } from '../support/order-pipeline';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
let invoices: DynamoInvoiceRepository;
/** The stack's log as `npm start` writes it (each line with its time), for `ops order trace`. */
const logFile = join(mkdtempSync(join(tmpdir(), 'stripe-events-')), 'service.jsonl');
let localLog: LocalLog;
const rawLogLines: string[] = [];
beforeAll(async () => {
  localLog = openLocalLog(logFile, { print: () => undefined });
  const kept = (level: 'info' | 'error') => (entry: Record<string, unknown>) => {
    rawLogLines.push(JSON.stringify({ level, ...entry }));
    localLog.logger[level](entry);
  };
  stack = await startTestStack({ queuePollers: false, logger: { info: kept('info'), error: kept('error') } });
  receiver = await startWebhookReceiver(() => 200);
  invoices = new DynamoInvoiceRepository(
    stack.deps.aws.db,
    tableName(stack.config.RESOURCE_PREFIX, 'orders'),
    stack.deps.clock,
  );
});
afterAll(async () => {
  await receiver.close();
  await stack.close();
  await localLog.close();
});

let counter = 0;

/** A partner subscribed to every invoice kind, with an organization set up through the API (a Stripe customer). */
async function aPartner() {
  counter += 1;
  const { partnerId, apiKey } = await stack.createPartner();
  const bearer = { Authorization: `Bearer ${apiKey}` };
  const lines: string[] = [];
  const set = await runOps(
    [
      'webhook',
      'set',
      '--partner',
      partnerId,
      '--url',
      receiver.url,
      '--events',
      'order.created,invoice.issued,invoice.paid,invoice.overdue',
    ],
    { deps: stack.deps, out: (line) => lines.push(line) },
  );
  expect(set, lines.join('\n')).toBe(0);
  const setup = await stack.post(
    '/v1/organizations/setup',
    aSetupRequest()
      .with({ internalOrgId: `org-stripe-${counter}`, internalUserId: 'u-1' })
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build(),
    bearer,
  );
  expect(setup.status, setup.text).toBe(200);
  return { partnerId, bearer };
}

/** A sandbox order shipped and invoiced through the stand-in: the invoice record, as the partner's invoice. */
async function anInvoicedOrder() {
  const partner = await aPartner();
  const placed = await stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: 'u-1', items: [{ product_id: 'GLV-NIT-M-100', quantity: 2 }] },
    partner.bearer,
  );
  expect(placed.status, placed.text).toBe(201);
  const orderId = placed.body.order.id as OrderId;
  await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, partner.bearer);
  expect((await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, partner.bearer)).status).toBe(200);
  while ((await stack.orderOutbox.pollOnce()).received > 0);
  expect(await stack.consumers.invoicing.pollOnce()).toMatchObject({ received: 1, failed: [] });
  const record = await invoices.getByOrder(orderId);
  expect(record?.status).toBe('open');
  return { ...partner, orderId, invoice: record as InvoiceRecord };
}

const secret = () => stack.config.STRIPE_WEBHOOK_SECRET as string;

/** A Stripe event about the invoice, as Stripe would send it (the invoice's fields as of `created`). */
function anEvent(record: InvoiceRecord, type: string, created: number, paid: boolean) {
  return JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created,
    data: {
      object: {
        id: record.stripeInvoiceId,
        object: 'invoice',
        amount_paid: paid ? record.totalCents : 0,
        amount_remaining: paid ? 0 : record.totalCents,
        metadata: { orderId: record.orderId },
      },
    },
  });
}

const signed = (payload: string, with_ = secret()) => ({
  'Stripe-Signature': stripeStandIn().webhooks.generateTestHeaderString({ payload, secret: with_ }),
});

const invoiceWebhooks = (orderId: string) =>
  receiver.requests
    .map((request) => JSON.parse(request.rawBody.toString('utf8')))
    .filter((body) => body.data?.order_id === orderId && String(body.event).startsWith('invoice.'))
    .map((body) => body.event as string);

const now = () => Math.floor(Date.now() / 1000);

describe('POST /v1/stripe/events', () => {
  it("applies Stripe's state on its signed invoice.paid: the invoice is paid and the partner receives invoice.paid", async () => {
    const { orderId, invoice } = await anInvoicedOrder();

    // Stripe pays it and sends its own signed invoice.paid to the stack's endpoint.
    await stripeStandIn().invoices.pay(invoice.stripeInvoiceId, { paid_out_of_band: true });

    await eventually(orderId, 'paid');
    expect(await invoices.getByOrder(orderId)).toMatchObject({
      amountDueCents: 0,
      amountPaidCents: invoice.totalCents,
    });
    await deliverEverything(stack);
    expect(invoiceWebhooks(orderId)).toContain('invoice.paid');
  });

  it("answers 200 ignored, stores nothing, for amounts an event carries that are not Stripe's and for order ids that are not ours", async () => {
    const { orderId, invoice, bearer } = await anInvoicedOrder();
    const lying = (amount: unknown, metadataOrderId = invoice.orderId) =>
      JSON.stringify({
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        object: 'event',
        type: 'invoice.payment_failed',
        created: now(),
        data: {
          object: {
            id: invoice.stripeInvoiceId,
            object: 'invoice',
            amount_paid: amount,
            amount_remaining: amount,
            metadata: { orderId: metadataOrderId },
          },
        },
      });
    for (const payload of [
      lying(-5),
      lying(1.5),
      lying('abc'),
      lying(99_999_999),
      ...['x'.repeat(3000), 'not-a-uuid', '../../x', '12345'].map((id) => lying(0, id)),
    ]) {
      const answer = await stack.post('/v1/stripe/events', payload, signed(payload));
      expect(answer.status, answer.text).toBe(200);
      expect(['applied', 'ignored']).toContain(answer.body.outcome);
    }
    expect(await invoices.getByOrder(orderId)).toMatchObject({
      amountPaidCents: 0,
      amountDueCents: invoice.totalCents,
      status: 'open',
    });
    const read = await stack.get(`/v1/invoices/${invoice.id}`, bearer);
    expect(read.status, read.text).toBe(200);
  });

  it('refuses a forged, an unsigned, a malformed and an oversized body with 400, logs no body, and changes nothing', async () => {
    const { orderId, invoice } = await anInvoicedOrder();
    const payload = anEvent(invoice, 'invoice.paid', now(), true);
    const attempts = [
      { body: payload, headers: signed(payload, 'whsec_not_the_stacks') },
      { body: payload, headers: {} },
      { body: '{"not": "json"', headers: signed('{"not": "json"') },
      { body: 'x'.repeat(300 * 1024), headers: signed('x'.repeat(300 * 1024)) },
    ];
    for (const { body, headers } of attempts) {
      const answer = await stack.post('/v1/stripe/events', body, headers);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body).toMatchObject({ error: 'Validation Error', code: 'VALIDATION_ERROR' });
      expect(answer.body.details[0]).toMatchObject({ code: 'INVALID_STRIPE_EVENT' });
    }
    expect(await invoices.getByOrder(orderId)).toMatchObject({ status: 'open', version: invoice.version });
    expect(rawLogLines.some((line) => line.includes(invoice.stripeInvoiceId))).toBe(false);
  });

  it('processes a replayed event once and never lets an older event roll back a newer state', async () => {
    const { orderId, invoice } = await anInvoicedOrder();
    const paid = anEvent(invoice, 'invoice.paid', now() + 5, true);
    const olderOverdue = anEvent(invoice, 'invoice.overdue', now() - 60, false);
    await stripeStandIn().invoices.pay(invoice.stripeInvoiceId, { paid_out_of_band: true });
    await eventually(orderId, 'paid');
    const paidVersion = (await invoices.getByOrder(orderId))?.version;

    expect((await stack.post('/v1/stripe/events', paid, signed(paid))).body.outcome).toBe('applied');
    const replay = await stack.post('/v1/stripe/events', paid, signed(paid));
    const older = await stack.post('/v1/stripe/events', olderOverdue, signed(olderOverdue));

    expect(replay.status).toBe(200);
    expect(replay.body.outcome).toBe('duplicate');
    expect(older.status).toBe(200);
    expect(older.body.outcome).toBe('unchanged');
    expect(await invoices.getByOrder(orderId)).toMatchObject({ status: 'paid', version: (paidVersion ?? 0) + 1 });
    await deliverEverything(stack);
    expect(invoiceWebhooks(orderId).filter((kind) => kind === 'invoice.paid')).toHaveLength(1);
    expect(invoiceWebhooks(orderId)).not.toContain('invoice.overdue');
  });

  it('answers 503 INVOICE_NOT_RECORDED_YET for an invoice the service has not recorded, so Stripe retries', async () => {
    const orderId = randomUUID();
    const unrecorded = { ...(await anInvoicedOrder()).invoice, orderId, id: invoiceIdFor(orderId) };
    const payload = anEvent(unrecorded, 'invoice.paid', now(), true);

    const answer = await stack.post('/v1/stripe/events', payload, signed(payload));

    expect(answer.status, answer.text).toBe(503);
    expect(answer.body).toMatchObject({ error: 'Service Unavailable', code: 'INVOICE_NOT_RECORDED_YET', details: [] });
    expect(answer.headers.get('retry-after')).toBe('60');
  });
});

/** Stripe's event is on its way when the sandbox route answers: the invoice changes once it arrives. */
const eventually = (orderId: string, status: InvoiceRecord['status']) =>
  vi.waitFor(async () => expect((await invoices.getByOrder(orderId))?.status).toBe(status), {
    timeout: 10_000,
    interval: 50,
  });

describe('POST /v1/sandbox/invoices/{invoice_id}/pay and /overdue', () => {
  it('pays through Stripe: the invoice becomes paid and the partner receives invoice.paid; a second pay is 409', async () => {
    const { orderId, invoice, bearer } = await anInvoicedOrder();

    const paid = await stack.post(`/v1/sandbox/invoices/${invoice.id}/pay`, {}, bearer);

    expect(paid.status, paid.text).toBe(202);
    expect(paid.body).toMatchObject({ invoice_id: invoice.id, action: 'pay' });
    await eventually(orderId, 'paid');
    await deliverEverything(stack);
    expect(invoiceWebhooks(orderId)).toContain('invoice.paid');

    const again = await stack.post(`/v1/sandbox/invoices/${invoice.id}/pay`, {}, bearer);
    expect(again.status, again.text).toBe(409);
    expect(again.body).toMatchObject({ error: 'Conflict', code: 'INVOICE_NOT_OPEN', details: [] });
  });

  it('makes an invoice overdue through Stripe: the partner receives invoice.overdue', async () => {
    const { orderId, invoice, bearer } = await anInvoicedOrder();

    const overdue = await stack.post(`/v1/sandbox/invoices/${invoice.id}/overdue`, {}, bearer);

    expect(overdue.status, overdue.text).toBe(202);
    await eventually(orderId, 'overdue');
    await deliverEverything(stack);
    expect(invoiceWebhooks(orderId)).toContain('invoice.overdue');
  });

  it('replays the 202 for the same Idempotency-Key, refuses the key on another invoice, and refuses body fields', async () => {
    const first = await anInvoicedOrder();
    const other = await anInvoicedOrder();
    const keyed = { ...first.bearer, 'Idempotency-Key': `pay-${randomUUID()}` };

    const paid = await stack.post(`/v1/sandbox/invoices/${first.invoice.id}/pay`, {}, keyed);
    expect(paid.status, paid.text).toBe(202);
    await eventually(first.orderId, 'paid');
    const replay = await stack.post(`/v1/sandbox/invoices/${first.invoice.id}/pay`, {}, keyed);
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toEqual(paid.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const elsewhere = await stack.post(`/v1/sandbox/invoices/${other.invoice.id}/pay`, {}, keyed);
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });

    for (const action of ['pay', 'overdue']) {
      const extra = await stack.post(`/v1/sandbox/invoices/${other.invoice.id}/${action}`, { amount: 1 }, other.bearer);
      expect(extra.status, extra.text).toBe(400);
      expect(extra.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect((await invoices.getByOrder(other.orderId))?.status).toBe('open');
  });

  it('answers the loser of a pay and an overdue 409 INVOICE_NOT_OPEN, and an invoice Stripe does not hold 409 INVOICE_NOT_AT_STRIPE', async () => {
    const { orderId, invoice, bearer } = await anInvoicedOrder();
    // Stripe has paid it; the service may not have heard yet.
    await stripeStandIn().invoices.pay(invoice.stripeInvoiceId, { paid_out_of_band: true });
    const late = await stack.post(`/v1/sandbox/invoices/${invoice.id}/overdue`, {}, bearer);
    expect(late.status, late.text).toBe(409);
    expect(late.body).toMatchObject({ code: 'INVOICE_NOT_OPEN', message: expect.stringContaining(invoice.id) });
    await eventually(orderId, 'paid');

    const lost = await anInvoicedOrder();
    const record = (await invoices.getByOrder(lost.orderId)) as InvoiceRecord;
    await invoices.update({ ...record, stripeInvoiceId: 'in_forgotten', version: record.version + 1 });
    const unknown = await stack.post(`/v1/sandbox/invoices/${lost.invoice.id}/pay`, {}, lost.bearer);
    expect(unknown.status, unknown.text).toBe(409);
    expect(unknown.body).toMatchObject({ code: 'INVOICE_NOT_AT_STRIPE', details: [] });
  });

  it("answers 404 INVOICE_NOT_FOUND for another partner's invoice or a malformed id, and Stripe is not asked", async () => {
    const { orderId, invoice } = await anInvoicedOrder();
    const stranger = await aPartner();

    for (const id of [invoice.id, 'inv_nope', invoiceIdFor(randomUUID())]) {
      const answer = await stack.post(`/v1/sandbox/invoices/${id}/pay`, {}, stranger.bearer);
      expect(answer.status, answer.text).toBe(404);
      expect(answer.body).toMatchObject({ error: 'Not Found', code: 'INVOICE_NOT_FOUND' });
    }
    expect((await stripeStandIn().invoices.retrieve(invoice.stripeInvoiceId)).status).toBe('open');
    expect((await invoices.getByOrder(orderId))?.status).toBe('open');
  });

  it('does not exist on production', async () => {
    const production = await startTestStack({ queuePollers: false, extraEnvironment: { STAGE: 'production' } });
    try {
      const { apiKey } = await production.createPartner();
      const answer = await production.post(
        `/v1/sandbox/invoices/${invoiceIdFor(randomUUID())}/pay`,
        {},
        {
          Authorization: `Bearer ${apiKey}`,
        },
      );
      // The gateway's own 404: production has no such route at all.
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('No route for POST') });
    } finally {
      await production.close();
    }
  });
});

describe('ops order trace and ops metrics on the billing loop', () => {
  const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps, separateErrors: true });
  /** The lines `npm start` has buffered reach the file on the next turn of the event loop. */
  const flushed = () => new Promise<void>((done) => setImmediate(done));
  const traced = async (orderId: string, file = logFile) => {
    const run = await ops(['order', 'trace', '--order', orderId, '--file', file, '--json']);
    expect(run.code, run.err.join('\n')).toBe(0);
    return run.json as Record<string, string>[];
  };
  const times = (lines: readonly Record<string, string>[]) => lines.map((line) => Date.parse(line.timestamp ?? ''));
  /** The Stripe event's request is done once its line and its metrics are written: wait for them, not for time. */
  const written = (found: () => boolean) =>
    vi.waitFor(() => expect(found()).toBe(true), { timeout: 10_000, interval: 20 });
  const stripeEventLogged = (orderId: string, kind: string) =>
    written(() =>
      rawLogLines.some((text) => {
        const line = JSON.parse(text) as Record<string, unknown>;
        return line.msg === 'api_request' && line.orderId === orderId && line.action === kind;
      }),
    );

  it('shows the sandbox pay and overdue requests and the Stripe events that changed the invoice, strictly oldest first', async () => {
    const paid = await anInvoicedOrder();
    const payRequest = await stack.post(`/v1/sandbox/invoices/${paid.invoice.id}/pay`, {}, paid.bearer);
    expect(payRequest.status, payRequest.text).toBe(202);
    await eventually(paid.orderId, 'paid');
    await stripeEventLogged(paid.orderId, 'invoice.paid');
    const overdue = await anInvoicedOrder();
    const overdueRequest = await stack.post(`/v1/sandbox/invoices/${overdue.invoice.id}/overdue`, {}, overdue.bearer);
    expect(overdueRequest.status, overdueRequest.text).toBe(202);
    await eventually(overdue.orderId, 'overdue');
    await stripeEventLogged(overdue.orderId, 'invoice.overdue');
    await flushed();

    for (const [{ orderId }, request, action, kind] of [
      [paid, payRequest, 'invoice-pay', 'invoice.paid'],
      [overdue, overdueRequest, 'invoice-overdue', 'invoice.overdue'],
    ] as const) {
      const story = await traced(orderId);
      const at = (found: (line: Record<string, string>) => boolean) => story.findIndex(found);
      const shipped = at((line) => line.msg === 'api_request' && line.action === 'ship');
      const asked = at((line) => line.msg === 'api_request' && line.requestId === request.headers.get('request-id'));
      const applied = at((line) => line.msg === 'stripe_event' && line.type === kind && line.outcome === 'applied');
      expect(
        [shipped, asked, applied].every((index) => index >= 0),
        JSON.stringify(story, null, 1),
      ).toBe(true);
      expect(story[asked]).toMatchObject({ action, orderId });
      expect(story[applied]).toMatchObject({ orderId, created: expect.any(String) });
      expect(shipped).toBeLessThan(asked);
      expect(asked).toBeLessThan(applied);
      const inOrder = times(story);
      expect(inOrder).toEqual([...inOrder].sort((a, b) => a - b));

      // Written in another order (a request's line is written when it ends), the trace is still oldest first.
      const shuffled = join(mkdtempSync(join(tmpdir(), 'shuffled-')), 'service.jsonl');
      writeFileSync(
        shuffled,
        [...story]
          .reverse()
          .map((line) => `${JSON.stringify(line)}\n`)
          .join(''),
      );
      const again = times(await traced(orderId, shuffled));
      expect(again).toEqual([...again].sort((a, b) => a - b));
    }

    const text = await ops(['order', 'trace', '--order', paid.orderId, '--file', logFile]);
    const stripeLine = text.lines.find((line) => line.includes('stripe_event') && line.includes('outcome=applied'));
    expect(stripeLine).toMatch(/invoice\.paid\s+stripe\s.*stripe invoice\.paid evt_\w+ created \d{4}-/);
    expect(text.lines.find((line) => line.includes(String(payRequest.headers.get('request-id'))))).toMatch(
      /invoice-pay\s+partner/,
    );
  });

  it('counts a partial refund as a refund, not a delivery, and counts credited and overdue invoices', async () => {
    const from = stack.metricLines.length;
    const refunded = await anInvoicedOrder();
    expect((await stack.post(`/v1/sandbox/orders/${refunded.orderId}/deliver`, {}, refunded.bearer)).status).toBe(200);
    const refund = await stack.post(`/v1/sandbox/orders/${refunded.orderId}/refund`, { amount: 5 }, refunded.bearer);
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.order.status).toBe('delivered');
    while ((await stack.orderOutbox.pollOnce()).received > 0);
    expect(await stack.consumers.invoicing.pollOnce()).toMatchObject({ received: 1, failed: [] });
    expect((await invoices.getByOrder(refunded.orderId))?.amountCreditedCents).toBe(500);
    const overdue = await anInvoicedOrder();
    expect((await stack.post(`/v1/sandbox/invoices/${overdue.invoice.id}/overdue`, {}, overdue.bearer)).status).toBe(
      202,
    );
    await eventually(overdue.orderId, 'overdue');
    await written(() => stack.metricLines.slice(from).some((line) => 'InvoicesOverdue' in line));

    const file = join(mkdtempSync(join(tmpdir(), 'metrics-')), 'service.jsonl');
    writeFileSync(
      file,
      stack.metricLines
        .slice(from)
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const printed = await ops(['metrics', '--since', '1h', '--file', file]);
    expect(printed.code, printed.err.join('\n')).toBe(0);
    const count = (metric: string, dimensions = '-') =>
      printed.lines
        .map((line) => line.split(/\s{2,}/))
        .find(([name, dims]) => name === metric && dims === dimensions)?.[2];
    expect(count('OrdersMoved', 'status=delivered'), printed.text).toBe('1');
    expect(count('OrdersMoved', 'status=refunded')).toBe('1');
    expect(count('OrdersMoved', 'status=shipped')).toBe('2');
    expect(count('InvoicesIssued')).toBe('2');
    expect(count('InvoicesCredited')).toBe('1');
    expect(count('InvoicesOverdue')).toBe('1');
  });
});

describe("the invoice's hosted page and PDF (the local Stripe stand-in)", () => {
  it('bill the organization as its setup named it: name, billing e-mail and address, its terms, the PO number, shipping and tax', async () => {
    const { apiKey } = await stack.createPartner();
    const bearer = { Authorization: `Bearer ${apiKey}` };
    const internalOrgId = `org-pdf-${randomUUID().slice(0, 8)}`;
    const setup = await stack.post(
      '/v1/organizations/setup',
      aSetupRequest()
        .forOrg(internalOrgId, 'Blue Ridge Dental')
        .with({
          internalUserId: 'u-1',
          paymentTerms: 'net15',
          billingEmail: 'ap@blueridge.test',
          billingAddress: { line1: '9 Ledger Ln', city: 'Roanoke', province: 'VA', postalCode: '24011', country: 'US' },
        })
        .withLocations(aLocation('loc-main', { isDefault: true }))
        .build(),
      bearer,
    );
    expect(setup.status, setup.text).toBe(200);
    const placed = await stack.post(
      '/v1/sandbox/orders',
      {
        internal_user_id: 'u-1',
        internal_org_id: internalOrgId,
        po_number: 'PO-88',
        items: [
          { product_id: 'GLV-NIT-M-100', quantity: 2 },
          { product_id: 'MSK-L3-50', quantity: 1 },
        ],
      },
      bearer,
    );
    expect(placed.status, placed.text).toBe(201);
    const order = placed.body.order;
    await stack.post(`/v1/sandbox/orders/${order.id}/confirm`, {}, bearer);
    expect((await stack.post(`/v1/sandbox/orders/${order.id}/ship`, {}, bearer)).status).toBe(200);
    while ((await stack.orderOutbox.pollOnce()).received > 0);
    expect(await stack.consumers.invoicing.pollOnce()).toMatchObject({ received: 1, failed: [] });
    const record = (await invoices.getByOrder(order.id)) as InvoiceRecord;

    const usd = (dollars: number) => `$${dollars.toFixed(2)}`;
    const expected = [
      'Blue Ridge Dental',
      'ap@blueridge.test',
      '9 Ledger Ln',
      'Roanoke, ',
      ' 24011',
      'Terms Net 15',
      'PO number PO-88',
      `Shipping ${usd(order.shipping)}`,
      `Sales tax ${usd(order.tax)}`,
      `Total ${usd(order.total)}`,
      ...order.items.map((item: { quantity: number; price: number }) => `${item.quantity} ${usd(item.price)}`),
    ];
    const words = (text: string) => text.replace(/\s+/g, ' ');
    const html = await (await fetch(record.hostedInvoiceUrl)).text();
    const pageText = words(html.replace(/<[^>]+>/g, ' '));
    for (const field of expected) expect(pageText, field).toContain(field);
    const pdf = await fetch(record.invoicePdf);
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${record.number}.pdf"`);
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    try {
      const pdfText = words((await parser.getText()).text);
      for (const field of expected) expect(pdfText, field).toContain(field);
    } finally {
      await parser.destroy();
    }
  });
});
