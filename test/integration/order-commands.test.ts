/**
 * The operator CLI's catalog and order commands on the local stack: exit codes, output,
 * stored state, and the webhooks the fulfilment path sends (one per change).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { orderItem } from '../../functions/adapters/dynamodb/dynamodb-order-repository';
import type { Order, OrderId } from '../../functions/domain/orders/order';
import { tableName } from '../../functions/resources/resource-definitions';
import { findOrder } from '../../lib/ops-cli/order-lookup';
import { COMMANDS, runOps } from '../../lib/ops-cli/run-ops';
import { runOpsCapturing } from '../support/ops-run';
import {
  A_PICTURE,
  anItem,
  anOrderingPartner,
  deliverEverything,
  DRIFT_PRODUCTS,
  importDriftProducts,
  type OrderingPartner,
  webhooksOf,
} from '../support/order-pipeline';
import { startTestStack, type TestStack } from '../support/test-stack';
import { purgeQueues } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
let dir: string;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  receiver = await startWebhookReceiver(() => 200);
  await importDriftProducts(stack);
  dir = mkdtempSync(join(tmpdir(), 'catalog-'));
});
afterEach(() => purgeQueues(stack));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await receiver.close();
  await stack.close();
});

const ops = (argv: string[]) => runOpsCapturing(argv, { deps: stack.deps, separateErrors: true });

const aFile = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

const placeOrder = async (partner: OrderingPartner) =>
  (
    await stack.post(
      '/v1/sandbox/orders',
      { internal_user_id: partner.buyer.profile.internalUserId, items: [anItem('DRIFT-1999', 2)] },
      partner.bearer,
    )
  ).body.order;

describe('catalog import and list', () => {
  it('upserts by product_id, keeps products left out, hides active: false, and lists inactive ones too', async () => {
    aFile('picture.svg', A_PICTURE.toString());
    const file = aFile('good.json', [
      { ...DRIFT_PRODUCTS[0], name: 'Cotton rolls, 2 inch', price: 0.15 },
      {
        product_id: 'NEW-BIB-500',
        name: 'Patient bibs',
        description: 'Two-ply',
        category: 'clinical-disposables',
        price: 24.5,
        unit: 'case of 500',
        active: false,
        image: 'picture.svg',
      },
    ]);
    const run = await ops(['catalog', 'import', '--file', file]);
    expect(run.code).toBe(0);
    expect(run.text).toBe('Imported 2 products (1 active, 1 inactive). Products not in the file are unchanged.');

    const listed = await ops(['catalog', 'list', '--json']);
    expect(listed.code).toBe(0);
    const byId = new Map(listed.json.products.map((p: { product_id: string }) => [p.product_id, p]));
    expect(byId.get('DRIFT-010')).toMatchObject({ name: 'Cotton rolls, 2 inch', price: 0.15, active: true });
    expect(byId.get('NEW-BIB-500')).toMatchObject({ active: false, price: 24.5 });
    expect(byId.get('DRIFT-1999')).toMatchObject({ price: 19.99 });
    expect((await stack.deps.catalog.listActive()).some((p) => p.productId === 'NEW-BIB-500')).toBe(false);

    const text = await ops(['catalog', 'list']);
    expect(text.lines[0]).toMatch(/^PRODUCT ID\s+NAME\s+CATEGORY\s+PRICE\s+UNIT\s+ACTIVE\s+IMAGE$/);
    expect(text.text).toMatch(
      /NEW-BIB-500\s+Patient bibs\s+clinical-disposables\s+\$24\.50\s+case of 500\s+false\s+[0-9a-f]{64}\.svg/,
    );
  });

  it('reports every invalid row by index and field on one line, exit 1, and applies nothing of the file', async () => {
    const before = await ops(['catalog', 'list', '--json']);
    const file = aFile('bad.json', [
      { ...DRIFT_PRODUCTS[1], price: 99 },
      { ...DRIFT_PRODUCTS[2], price: 1.005 },
      { ...DRIFT_PRODUCTS[1], colour: 'red' },
      { product_id: 'x y', name: '', category: 'toys' },
    ]);
    const run = await ops(['catalog', 'import', '--file', file]);
    expect(run.code).toBe(1);
    expect(run.lines).toEqual([]);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/^Error: .*bad\.json has \d+ problems; nothing was imported: /);
    for (const fragment of ['[1].price', '[2]', 'DRIFT-020', '[3].product_id', '[3].name', '[3].image', '[3].price'])
      expect(run.err[0]).toContain(fragment);
    expect((await ops(['catalog', 'list', '--json'])).json).toEqual(before.json);

    const malformed = await ops(['catalog', 'import', '--file', aFile('broken.json', '[{"product_id": ')]);
    expect(malformed.code).toBe(1);
    expect(malformed.err[0]).toMatch(/not valid JSON; nothing was imported/);
    const missing = await ops(['catalog', 'import', '--file', join(dir, 'absent.json')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toHaveLength(1);
    expect((await ops(['catalog', 'import'])).code).toBe(2); // --file left out: a usage error
    expect((await ops(['catalog', 'import', '--help'])).code).toBe(0);
  });
});

describe('order commands', () => {
  it('drives an order through every status from the CLI, each change sending exactly one webhook', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const order = await placeOrder(partner);
    const id = order.id;
    const steps: [string[], string][] = [
      [['order', 'confirm', '--order', id], 'confirmed'],
      [
        [
          'order',
          'ship',
          '--order',
          id,
          '--tracking-number',
          '1Z1',
          '--carrier',
          'UPS',
          '--tracking-url',
          'https://track.example.com/1Z1',
          '--estimated-delivery',
          '2036-01-09T17:00:00Z',
        ],
        'shipped',
      ],
      [['order', 'deliver', '--order', id, '--signature', 'R. Front Desk'], 'delivered'],
      // Part of the total: the order stays delivered; the rest makes it refunded.
      [['order', 'refund', '--order', id, '--amount', '10.50', '--reason', 'damaged'], 'delivered'],
      [['order', 'refund', '--order', id], 'refunded'],
    ];
    for (const [argv, status] of steps) {
      const run = await ops([...argv, '--json']);
      expect(run.code, run.err.join()).toBe(0);
      expect(run.json).toMatchObject({ id, status, partner_id: partner.partnerId });
    }
    const shown = await ops(['order', 'show', '--order', id, '--json']);
    expect(shown.json).toMatchObject({
      status: 'refunded',
      tracking_number: '1Z1',
      signature: 'R. Front Desk',
      amount_refunded: order.total,
    });
    const text = await ops(['order', 'show', '--order', id]);
    expect(text.text).toMatch(/status:\s+refunded/);
    expect(text.text).toMatch(/refunded:\s+\$[\d.,]+ of \$[\d.,]+ \(2 refunds\)/);
    expect(text.text).toMatch(/tracking:\s+UPS 1Z1 https:\/\/track\.example\.com\/1Z1/);

    await deliverEverything(stack);
    const webhooks = webhooksOf(receiver, id, partner.secret);
    expect(webhooks.map((w) => w.event).sort()).toEqual([
      'order.confirmed',
      'order.created',
      'order.delivered',
      'order.refunded',
      'order.refunded',
      'order.shipped',
    ]);
    expect(webhooks.find((w) => w.event === 'order.shipped')!.body.data).toMatchObject({
      tracking_number: '1Z1',
      carrier: 'UPS',
      estimated_delivery: '2036-01-09T17:00:00Z',
    });
    expect(webhooks.find((w) => w.event === 'order.refunded' && w.body.data.sequence === 5)!.body.data).toMatchObject({
      status: 'delivered',
      refund_amount: 10.5,
      amount_refunded: 10.5,
      reason: 'damaged',
    });
  });

  it('refuses an invalid transition with one line and exit 1, changing nothing and sending nothing', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const order = await placeOrder(partner);
    await deliverEverything(stack);
    const before = receiver.requests.length;

    const deliver = await ops(['order', 'deliver', '--order', order.id, '--signature', 'Someone']);
    expect(deliver.code).toBe(1);
    expect(deliver.err).toEqual([`Error: Order ${order.id} is pending; it cannot become delivered`]);
    const refund = await ops(['order', 'refund', '--order', order.id]);
    expect(refund.err).toEqual([`Error: Order ${order.id} is pending; it cannot become refunded`]);

    await ops(['order', 'cancel', '--order', order.id, '--reason', 'duplicate']);
    const again = await ops(['order', 'cancel', '--order', order.id]);
    expect(again.code).toBe(1);
    expect(again.err[0]).toMatch(/is cancelled; it cannot become cancelled/);
    const confirm = await ops(['order', 'confirm', '--order', order.id]);
    expect(confirm.code).toBe(1);

    await deliverEverything(stack);
    expect(receiver.requests.length - before).toBe(1);
    expect(
      webhooksOf(receiver, order.id, partner.secret)
        .map((w) => w.event)
        .sort(),
    ).toEqual(['order.cancelled', 'order.created']);
    expect((await ops(['order', 'show', '--order', order.id, '--json'])).json.status).toBe('cancelled');
  });

  it('checks options before anything changes: missing tracking, an http URL, a bad amount, an unknown order', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const order = await placeOrder(partner);
    await ops(['order', 'confirm', '--order', order.id]);
    // Operators give every field (the sandbox's defaults are for partners' CI): one left out is a usage error.
    const missing = await ops(['order', 'ship', '--order', order.id, '--carrier', 'UPS']);
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/--tracking-number is required/);
    const unsigned = await ops(['order', 'deliver', '--order', order.id]);
    expect(unsigned.code).toBe(2);
    expect(unsigned.err[0]).toMatch(/--signature is required/);
    const http = await ops([
      'order',
      'ship',
      '--order',
      order.id,
      '--tracking-number',
      '1',
      '--carrier',
      'UPS',
      '--tracking-url',
      'http://x.example/1',
      '--estimated-delivery',
      '2036-01-09T17:00:00Z',
    ]);
    expect(http.code).toBe(1);
    expect(http.err[0]).toMatch(/tracking_url must be an https URL/);
    expect((await ops(['order', 'refund', '--order', order.id, '--amount', '1.005'])).err[0]).toMatch(
      /--amount must be a dollar amount/,
    );
    const unknown = await ops(['order', 'show', '--order', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual(['Error: No order 00000000-0000-4000-8000-000000000000']);
    expect((await ops(['order', 'show', '--order', 'nope'])).code).toBe(1);
    expect((await ops(['order', 'show', '--order', order.id, '--json'])).json.status).toBe('confirmed');
  });

  it('lists a partner’s orders newest first, across its organizations or for one', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const first = await placeOrder(partner);
    stack.clock.advance(1_000);
    const second = await placeOrder(partner);
    const all = await ops(['order', 'list', '--partner', partner.partnerId, '--json']);
    expect(all.json.orders.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
    const one = await ops([
      'order',
      'list',
      '--partner',
      partner.partnerId,
      '--org',
      partner.buyer.organization.internalOrgId,
    ]);
    expect(one.lines[0]).toMatch(/^ORDER ID\s+INTERNAL ORG ID\s+STATUS\s+TOTAL\s+ITEMS\s+CREATED$/);
    expect(one.lines).toHaveLength(3);
    expect((await ops(['order', 'list', '--partner', partner.partnerId, '--org', 'nobody'])).code).toBe(1);
    const other = await anOrderingPartner(stack, receiver);
    expect((await ops(['order', 'list', '--partner', other.partnerId])).text).toBe(
      `Partner ${other.partnerId} has no orders.`,
    );
  });

  it('labels order-event as a raw test tool that bypasses orders', async () => {
    const help = await ops(['order-event', '--help']);
    expect(help.code).toBe(0);
    expect(help.text).toMatch(/Raw test tool: publish a made-up order event \(no order is created or changed\)/);
  });
});

/** A stored copy of `order` under another id, as if placed with that id. */
async function storeCopy(order: Order, id: string): Promise<Order> {
  const copy = { ...order, id: id as OrderId };
  await stack.deps.aws.db.send(
    new PutCommand({ TableName: tableName(stack.config.RESOURCE_PREFIX, 'orders'), Item: orderItem(copy) }),
  );
  return copy;
}

describe('short order ids (the module shows the first 8 characters)', () => {
  it('takes the short id wherever an order id goes; refuses an ambiguous one with its candidates (exit 2); says an unknown one is unknown', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = await placeOrder(partner);
    const stored = (await stack.deps.orders.get(placed.id))!;
    const short = placed.id.slice(0, 8);

    const shown = await ops(['order', 'show', '--order', short, '--json']);
    expect(shown.code, shown.err.join()).toBe(0);
    expect(shown.json.id).toBe(placed.id);
    expect((await ops(['order', 'show', '--order', short.toUpperCase(), '--json'])).json.id).toBe(placed.id);
    const confirmed = await ops(['order', 'confirm', '--order', short, '--json']);
    expect(confirmed.code, confirmed.err.join()).toBe(0);
    expect(confirmed.json).toMatchObject({ id: placed.id, status: 'confirmed' });

    // Two orders whose ids share their first 8 characters.
    const twinA = await storeCopy(stored, 'abcdef01-0000-4000-8000-00000000000a');
    const twinB = await storeCopy(stored, 'abcdef01-0000-4000-8000-00000000000b');
    const ambiguous = await ops([
      'order',
      'ship',
      '--order',
      'ABCDEF01',
      '--tracking-number',
      '1',
      '--carrier',
      'UPS',
      '--tracking-url',
      'https://t.example/1',
      '--estimated-delivery',
      '2036-01-09',
    ]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err[0]).toMatch(
      /^Error: Order id abcdef01 is ambiguous: 2 orders start with it\. Give more of the id:/,
    );
    const listed = ambiguous.err.join('\n');
    expect(listed).toContain(`${twinA.id}  pending  partner ${partner.partnerId}`);
    expect(listed).toContain(twinB.id);
    // More of the id picks one.
    const longer = await ops(['order', 'show', '--order', 'abcdef01-0000-4000-8000-00000000000b', '--json']);
    expect(longer.json.id).toBe(twinB.id);
    expect((await ops(['order', 'show', '--order', 'abcdef01-0000-4000-8000-00000000000', '--json'])).code).toBe(2);

    const unknown = await ops(['order', 'show', '--order', 'fedcba98']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual(['Error: No order starts with fedcba98']);
    // Scoped to one partner: another partner's order is not found, the partner's own is.
    const other = await anOrderingPartner(stack, receiver);
    const foreign = await ops(['order', 'show', '--order', short, '--partner', other.partnerId]);
    expect(foreign.code).toBe(1);
    expect(foreign.err).toEqual([`Error: No order of partner ${other.partnerId} starts with ${short}`]);
    const own = await ops([
      'order',
      'show',
      '--order',
      short,
      '--partner',
      partner.partnerId,
      '--org',
      partner.buyer.organization.internalOrgId,
      '--json',
    ]);
    expect(own.json.id).toBe(placed.id);
    expect((await ops(['order', 'show', '--order', placed.id, '--partner', other.partnerId])).code).toBe(1);
    expect((await ops(['order', 'show', '--order', short, '--org', 'x'])).code).toBe(2); // --org needs --partner

    const tooShort = await ops(['order', 'show', '--order', short.slice(0, 7)]);
    expect(tooShort.code).toBe(1);
    expect(tooShort.err[0]).toMatch(
      /--order must be an order id: its UUID, or its first 8 characters .*e\.g\. 23a38da1/,
    );
  });

  it('bounds the read of a short id lookup and says so rather than guessing', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = await placeOrder(partner);
    const short = placed.id.slice(0, 8);
    // The whole stage's orders, at most 1 read: the lookup cannot know the id is unique.
    await expect(findOrder(stack.deps, short, {}, 1)).rejects.toThrow(
      /^Read 1 orders without finding every one starting with .*: give the whole order id, or --partner ID/,
    );
    // One partner's orders fit in the bound.
    expect((await findOrder(stack.deps, short, { partner: partner.partnerId as never }, 50)).id).toBe(placed.id);
  });

  it('takes --estimated-delivery as a date (17:00 UTC that day) or a date-time, and says the format otherwise', async () => {
    const partner = await anOrderingPartner(stack, receiver);
    const placed = await placeOrder(partner);
    await ops(['order', 'confirm', '--order', placed.id]);
    const ship = (when: string) =>
      ops([
        'order',
        'ship',
        '--order',
        placed.id.slice(0, 8),
        '--tracking-number',
        '1Z2',
        '--carrier',
        'UPS',
        '--tracking-url',
        'https://track.example.com/1Z2',
        '--estimated-delivery',
        when,
        '--json',
      ]);
    for (const bad of ['2036-02-30', '12/01/2036', '2036-12-01T17:00:00']) {
      const run = await ship(bad);
      expect(run.code, bad).toBe(1);
      expect(run.err).toEqual([
        'Error: --estimated-delivery must be a date (YYYY-MM-DD, e.g. 2036-12-01) or an ISO 8601 date-time with its offset, e.g. 2036-12-01T17:00:00Z',
      ]);
    }
    const shipped = await ship('2036-12-01');
    expect(shipped.code, shipped.err.join()).toBe(0);
    expect(shipped.json).toMatchObject({ status: 'shipped', estimated_delivery: '2036-12-01T17:00:00Z' });
  });

  it('says the expected format in every option format error of every command', async () => {
    const vague: string[] = [];
    for (const [name, command] of Object.entries(COMMANDS)) {
      const argv = [...name.split(' ')];
      for (const [option, spec] of Object.entries(command.options))
        if (spec.type !== 'boolean') argv.push(`--${option}`, 'x%');
      const errors: string[] = [];
      const run = await runOps(argv, { deps: async () => stack.deps, out: () => {}, err: (line) => errors.push(line) });
      if (run !== 1 || !errors[0]?.startsWith('Error: --')) continue;
      for (const issue of errors[0].slice('Error: '.length).split('; '))
        // An example, the values allowed, or the length expected.
        if (!/e\.g\. | like |one of |from |\(|at least|at most/.test(issue)) vague.push(`${name}: ${issue}`);
    }
    expect(vague).toEqual([]);
  });
});
