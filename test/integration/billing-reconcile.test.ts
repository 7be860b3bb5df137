/**
 * `ops billing reconcile --month YYYY-MM`: a month whose shipped orders are all invoiced
 * (and credited) in the service and in Stripe passes with exit 0; a gap made on purpose
 * (a shipment whose invoicing message was lost, a refund whose credit note never came)
 * is printed with what to do and exits 1, `--fix` issues exactly what was missing, and
 * the next run agrees; a Stripe invoice that disagrees with the record is named.
 */
import { PurgeQueueCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderId } from '../../functions/domain/orders/order';
import { stripeStandIn } from '../support/inspect';
import { runOpsCapturing } from '../support/ops-run';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';
import { TEST_CLOCK_START } from '../support/manual-clock';

let stack: TestStack;
let bearer: Record<string, string>;
const month = TEST_CLOCK_START.slice(0, 7);

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  const { apiKey } = await stack.createPartner();
  bearer = { Authorization: `Bearer ${apiKey}` };
  const setup = await stack.post(
    '/v1/organizations/setup',
    aSetupRequest()
      .with({ internalOrgId: 'org-reconciled', internalUserId: 'u-1' })
      .withLocations(aLocation('loc-main', { isDefault: true }))
      .build(),
    bearer,
  );
  expect(setup.status, setup.text).toBe(200);
});
afterAll(async () => {
  await stack?.close();
});

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps, separateErrors: true });

const drain = async () => {
  while ((await stack.orderOutbox.pollOnce()).received > 0);
  while ((await stack.consumers.invoicing.pollOnce()).received > 0);
};

async function aShippedOrder(): Promise<OrderId> {
  const placed = await stack.post(
    '/v1/sandbox/orders',
    { internal_user_id: 'u-1', items: [{ product_id: 'GLV-NIT-M-100', quantity: 2 }] },
    bearer,
  );
  expect(placed.status, placed.text).toBe(201);
  const orderId = placed.body.order.id as OrderId;
  await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, bearer);
  expect((await stack.post(`/v1/sandbox/orders/${orderId}/ship`, {}, bearer)).status).toBe(200);
  return orderId;
}

const loseInvoicingMessages = async () => {
  while ((await stack.orderOutbox.pollOnce()).received > 0);
  await stack.deps.aws.sqs.send(new PurgeQueueCommand({ QueueUrl: stack.queueUrls.invoicing }));
};

describe('billing reconcile', () => {
  it('passes a month whose shipped orders are invoiced and credited in the service and in Stripe alike', async () => {
    const orderId = await aShippedOrder();
    await drain();
    await stack.post(`/v1/sandbox/orders/${orderId}/deliver`, {}, bearer);
    expect((await stack.post(`/v1/sandbox/orders/${orderId}/refund`, { amount: 5 }, bearer)).status).toBe(200);
    await drain();

    const run = await ops(['billing', 'reconcile', '--month', month]);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.text).toContain(`${month}: 1 shipped orders, 1 invoiced; the service and Stripe agree.`);
  });

  it('finds a shipment never invoiced and a refund never credited, exits 1 with what to do, and --fix closes both', async () => {
    const uninvoiced = await aShippedOrder();
    await loseInvoicingMessages();
    const refunded = await aShippedOrder();
    await drain();
    await stack.post(`/v1/sandbox/orders/${refunded}/deliver`, {}, bearer);
    expect((await stack.post(`/v1/sandbox/orders/${refunded}/refund`, { amount: 3 }, bearer)).status).toBe(200);
    await loseInvoicingMessages();

    const found = await ops(['billing', 'reconcile', '--month', month, '--json']);
    expect(found.code).toBe(1);
    const report = found.json;
    expect(report).toMatchObject({ month, shippedOrders: 3, invoices: 2 });
    expect(report.mismatches).toHaveLength(2);
    expect(report.mismatches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'invoice-missing', orderId: uninvoiced }),
        expect.objectContaining({
          kind: 'credit-note-missing',
          orderId: refunded,
          detail: expect.stringContaining('$3.00'),
        }),
      ]),
    );
    const text = await ops(['billing', 'reconcile', '--month', month]);
    expect(text.code).toBe(1);
    expect(text.text).toContain(`- invoice-missing order ${uninvoiced}`);
    expect(text.text).toContain(`to do: run with --fix, or: npm run ops -- invoices reissue --order ${uninvoiced}`);

    const fixed = await ops(['billing', 'reconcile', '--month', month, '--fix']);
    expect(fixed.code, fixed.text).toBe(0);
    expect(fixed.text).toContain('2 mismatch(es), 2 fixed');

    const again = await ops(['billing', 'reconcile', '--month', month]);
    expect(again.code, again.text).toBe(0);
    const record = await stack.deps.functions.invoicing.invoices.getByOrder(refunded);
    expect(record?.creditNotes.map((note) => note.amountCents)).toEqual([300]);
    const invoices = await stripeStandIn().invoices.list({ limit: 100 });
    expect(invoices.data.filter((invoice) => invoice.metadata?.orderId === uninvoiced)).toHaveLength(1);
  });

  it('names an invoice the service shows paid while Stripe has it open', async () => {
    const orderId = await aShippedOrder();
    await drain();
    const record = (await stack.deps.functions.invoicing.invoices.getByOrder(orderId))!;
    // A record that went wrong: paid in the service, never in Stripe.
    await stack.deps.functions.invoicing.invoices.update({
      ...record,
      status: 'paid',
      amountPaidCents: record.totalCents,
      amountDueCents: 0,
      version: record.version + 1,
    });

    const run = await ops(['billing', 'reconcile', '--month', month, '--json']);
    expect(run.code).toBe(1);
    expect(run.json.mismatches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'status', orderId, detail: 'service says paid, Stripe says open' }),
        expect.objectContaining({ kind: 'amount-paid', orderId }),
      ]),
    );
  });

  it('refuses a month not written YYYY-MM', async () => {
    const run = await ops(['billing', 'reconcile', '--month', '2026-13']);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toContain('--month');
  });
});
