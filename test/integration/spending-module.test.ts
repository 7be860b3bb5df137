/**
 * The module's Spending page and its CSV over HTTP, as a browser without script uses them
 * (docs/module.md, "Spending"): orders of three users at two locations in two categories,
 * either side of Chicago's midnight between November and December, each total on the page
 * checked to the cent against the orders placed; the CSV's rows, its RFC 4180 quoting and
 * its formula guard; the month picker; a buyer refused.
 */
import { parse } from 'csv-parse/sync';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ProductId } from '../../functions/domain/catalog/product';
import { formatUsd, type Cents } from '../../functions/domain/money';
import type { Order } from '../../functions/domain/orders/order';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { type ModuleClient, signInToModule } from '../support/module-client';
import { aSetupBody, provisionProfile, type ProvisionedProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };

const product = (productId: string, name: string, category: string, priceCents: number): Product => ({
  productId: productId as ProductId,
  name,
  description: 'for the Spending page',
  category,
  priceCents: priceCents as Cents,
  unit: 'each',
  active: true,
  image: `${'0'.repeat(64)}.svg`,
});
// A name with a comma and quotes: the CSV must quote it, and the page escape it.
const GLOVES = product('SPM-GLOVES', 'Gloves, nitrile "M"', 'Page Clinical', 1999);
const BURS = product('SPM-BURS', 'Carbide burs', 'Page Burs', 4337);
const HOSTILE_PO = '=HYPERLINK("http://evil.test/x","Invoice")';
const SHIPMENT = {
  tracking_number: '1Z999AA10123456784',
  carrier: 'UPS',
  tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  estimated_delivery: '2036-12-20T17:00:00.000Z',
};

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  partner = await stack.createPartner();
  await stack.deps.catalog.upsertMany([GLOVES, BURS]);
});
afterAll(() => stack.close());

type Node = ReturnType<typeof parseDocument>['children'][number];
type Element = Extract<Node, { attribs: unknown }>;
const text = (node: Node): string => DomUtils.textContent(node).replace(/\s+/g, ' ').trim();
const byTestId = (html: string, id: string): Element =>
  DomUtils.findOne((e) => e.attribs['data-testid'] === id, parseDocument(html).children) as Element;
/** A table's body rows as header cell → the other cells' text. */
const rowsOf = (table: Element): Record<string, string[]> =>
  Object.fromEntries(
    DomUtils.findAll((e) => e.name === 'tr' && (e.parent as Element | null)?.name === 'tbody', [table]).map((row) => {
      const cells = DomUtils.findAll((e) => e.name === 'th' || e.name === 'td', [row]);
      return [text(cells[0]!), cells.slice(1).map(text)];
    }),
  );
const usd = (cents: number) => formatUsd(cents as Cents);
const sum = (orders: readonly Order[]) => orders.reduce((total, order) => total + order.totalCents, 0);
const goods = (orders: readonly Order[], item: Product) =>
  orders
    .flatMap((o) => o.items.filter((i) => i.productId === item.productId))
    .reduce((t, i) => t + i.unitPriceCents * i.quantity, 0);

interface Office {
  readonly grace: { who: ProvisionedProfile; module: ModuleClient };
  readonly ana: { who: ProvisionedProfile; module: ModuleClient };
  readonly november: Order[];
  readonly december: Order[];
}

/** An approver and two buyers in Chicago's zone; orders in November (one at 23:30 on the 30th) and December. */
async function anOffice(): Promise<Office> {
  const body = aSetupBody({
    timeZone: 'America/Chicago',
    shippingLocations: [
      ...aSetupBody().shippingLocations!,
      {
        internalShippingLocationId: 'loc-north',
        name: 'North clinic',
        address: { line1: '9 North Rd', city: 'Dallas', province: 'TX', postalCode: '75201' },
      },
    ],
  });
  const person = (id: string, first: string, extra: Record<string, unknown> = {}) =>
    provisionProfile(stack.deps, partner.partnerId, {
      ...body,
      internalUserId: `${id}-${body.internalUserId}`,
      user: { firstName: first, lastName: 'Tester', email: `${id}.${body.user.email}`, ...extra },
    });
  const grace = await person('grace', 'Grace', { role: 'approver' });
  const ana = await person('ana', 'Ana', { orderLimit: 400, monthlyLimit: 1000 });
  const sam = await person('sam', 'Sam');
  const north = (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!.locations.find(
    (l) => l.internalShippingLocationId === 'loc-north',
  )!;
  const place = async (
    who: ProvisionedProfile,
    items: { productId: ProductId; quantity: number }[],
    extra: { shippingLocationId?: string; poNumber?: string } = {},
  ) =>
    stack.deps.orderService.placeOrder({
      partner: { id: partner.partnerId },
      profile: (await stack.deps.organizations.getProfile(who.profile.id))!,
      organization: (await stack.deps.organizations.getOrganization(partner.partnerId, body.internalOrgId))!,
      items,
      ...(extra.shippingLocationId ? { shippingLocationId: extra.shippingLocationId } : {}),
      ...(extra.poNumber ? { references: { poNumber: extra.poNumber } } : {}),
    });
  let november: Order[];
  let december: Order[];
  try {
    stack.clock.set(new Date('2036-11-10T16:00:00.000Z'));
    const a1 = await place(ana, [{ productId: GLOVES.productId, quantity: 3 }], { poNumber: HOSTILE_PO });
    stack.clock.set(new Date('2036-11-20T16:00:00.000Z'));
    const s1 = await place(sam, [{ productId: BURS.productId, quantity: 2 }], { shippingLocationId: north.id });
    // 05:30 UTC on December 1 is still November 30 in Chicago; 06:30 is December there.
    stack.clock.set(new Date('2036-12-01T05:30:00.000Z'));
    const a2 = await place(ana, [
      { productId: BURS.productId, quantity: 1 },
      { productId: GLOVES.productId, quantity: 2 },
    ]);
    stack.clock.set(new Date('2036-12-01T06:30:00.000Z'));
    const d1 = await place(ana, [{ productId: BURS.productId, quantity: 3 }], { shippingLocationId: north.id });
    november = [a1, s1, a2];
    december = [d1];
  } finally {
    // Read on December 15 in Chicago: December is this month, so only it weighs what the monthly limit leaves.
    stack.clock.set(new Date('2036-12-15T18:00:00.000Z'));
  }
  // Signed in on the day of the report: a session would idle out across the months above.
  return {
    grace: { who: grace, module: await signInToModule(stack, partner, grace) },
    ana: { who: ana, module: await signInToModule(stack, partner, ana) },
    november,
    december,
  };
}

describe('the Spending page', () => {
  it('shows an approver each total of the month to the cent: by user, location and category, and the chart', async () => {
    const { grace, november } = await anOffice();
    const page = await grace.module.get(`${grace.module.base}/spending?month=2036-11`);
    expect(page.status, page.text).toBe(200);
    expect(text(byTestId(page.text, 'month-total'))).toBe(usd(sum(november)));

    const users = rowsOf(byTestId(page.text, 'spend-users'));
    const [a1, s1, a2] = november as [Order, Order, Order];
    expect(users['Ana Tester']).toEqual([usd(a1.totalCents + a2.totalCents), '$400.00', '$1,000.00', 'Past month']);
    expect(users['Sam Tester']).toEqual([usd(s1.totalCents), 'None', 'None', 'No limit']);
    expect(users['Grace Tester']).toEqual(['$0.00', 'None', 'None', 'No limit']);
    expect(Object.keys(users)).toHaveLength(3);

    expect(rowsOf(byTestId(page.text, 'spend-locations'))).toEqual({
      'Main office': [usd(a1.totalCents + a2.totalCents)],
      'North clinic': [usd(s1.totalCents)],
    });
    expect(rowsOf(byTestId(page.text, 'spend-categories'))).toEqual({
      'Page Burs': [usd(goods(november, BURS))],
      'Page Clinical': [usd(goods(november, GLOVES))],
    });
    // The chart's table: June to November by location, November's column adding up to the month's total.
    const chart = byTestId(page.text, 'chart-table');
    const months = DomUtils.findAll((e) => e.name === 'th' && e.attribs.scope === 'col', [chart]).map(text);
    expect(months).toEqual([
      'Location',
      'June 2036',
      'July 2036',
      'August 2036',
      'September 2036',
      'October 2036',
      'November 2036',
    ]);
    expect(rowsOf(chart)['Main office']).toEqual([...Array(5).fill('$0.00'), usd(a1.totalCents + a2.totalCents)]);
    expect(rowsOf(chart)['North clinic']).toEqual([...Array(5).fill('$0.00'), usd(s1.totalCents)]);
    const footer = DomUtils.findOne((e) => e.name === 'tfoot', [chart])!;
    expect(DomUtils.findAll((e) => e.name === 'th' || e.name === 'td', [footer]).map(text)).toEqual([
      'Total',
      ...Array(5).fill('$0.00'),
      usd(sum(november)),
    ]);
    expect(page.text).toMatch(/<svg role="img"[^>]*aria-labelledby="chart-title chart-desc"/);
  });

  it('opens on this month, where the monthly limit says what remains, and the picker offers the months before', async () => {
    const { grace, december } = await anOffice();
    const page = await grace.module.get(`${grace.module.base}/spending`);
    expect(page.status).toBe(200);
    expect(text(byTestId(page.text, 'month-total'))).toBe(usd(sum(december)));
    expect(rowsOf(byTestId(page.text, 'spend-users'))['Ana Tester']).toEqual([
      usd(sum(december)),
      '$400.00',
      '$1,000.00',
      usd(100_000 - sum(december)),
    ]);
    const select = DomUtils.findOne(
      (e) => e.name === 'select' && e.attribs.name === 'month',
      parseDocument(page.text).children,
    )!;
    const options = DomUtils.findAll((e) => e.name === 'option', [select]);
    expect(options.map((o) => o.attribs.value)).toEqual([
      '2036-12',
      '2036-11',
      '2036-10',
      '2036-09',
      '2036-08',
      '2036-07',
      '2036-06',
      '2036-05',
      '2036-04',
      '2036-03',
      '2036-02',
      '2036-01',
    ]);
    expect(options.filter((o) => 'selected' in o.attribs).map(text)).toEqual(['December 2036 (this month)']);
    expect(page.text).toContain(`href="${grace.module.base}/spending/csv?month=2036-12"`);

    const november = await grace.module.get(`${grace.module.base}/spending?month=2036-11`);
    expect(november.text).toMatch(/<option value="2036-11" selected/);
    const malformed = await grace.module.get(`${grace.module.base}/spending?month=2036-13`);
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('month must be YYYY-MM');
    for (const month of ['0000-01', '9999-12']) {
      const outside = await grace.module.get(`${grace.module.base}/spending?month=${month}`);
      expect(outside.status, month).toBe(400);
      expect(outside.text).toContain('from 2000-01 to 2199-12');
      const csv = await grace.module.get(`${grace.module.base}/spending/csv?month=${month}`);
      expect(csv.status, month).toBe(400);
    }
  });

  it('downloads the month as CSV: a row per order whose Net sums to the page’s total, with the invoice number', async () => {
    const { grace, november } = await anOffice();
    const [a1, s1, a2] = november as [Order, Order, Order];
    const scope = { partnerId: partner.partnerId };
    const move = (order: Order, action: string, input: unknown = {}) =>
      stack.deps.orderService.transition(order.id, action, input, scope);
    // Tax and shipping on every order; one invoiced and refunded twice in part, one cancelled.
    await move(a1, 'confirm');
    await move(a1, 'ship', SHIPMENT);
    const invoice = await stack.deps.functions.invoicing.invoicing.issue(a1.id);
    await move(a1, 'deliver', { signature: 'Front desk' });
    await move(a1, 'refund', { amount: 10.01 });
    await move(a1, 'refund', { amount: 0.99 });
    await move(s1, 'cancel', { reason: 'ordered twice' });

    const page = await grace.module.get(`${grace.module.base}/spending?month=2036-11`);
    const pageTotal = text(byTestId(page.text, 'month-total'));
    expect(pageTotal).toBe(usd(a1.totalCents - 1_100 + a2.totalCents));

    const csv = await grace.module.get(`${grace.module.base}/spending/csv?month=2036-11`);
    expect(csv.status).toBe(200);
    const response = await fetch(`${stack.url}${grace.module.base}/spending/csv?month=2036-11`, {
      headers: { Cookie: grace.module.cookie },
    });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="spending-2036-11.csv"');
    expect(csv.text).toContain('\r\n');

    const [header, ...rows] = parse(csv.text) as string[][];
    expect(header).toEqual([
      'Order',
      'PO number',
      'Placed at',
      'User',
      'Location',
      'Status',
      'Invoice',
      'Goods',
      'Tax',
      'Shipping',
      'Refunded',
      'Net',
    ]);
    const money = (cents: number) => (cents / 100).toFixed(2);
    const amounts = (o: Order, refunded: number) => [
      money(o.subtotalCents),
      money(o.taxCents),
      money(o.shippingCents),
      money(refunded),
      money(o.totalCents - refunded),
    ];
    expect(rows).toEqual([
      [
        a1.id,
        `'${HOSTILE_PO}`,
        '2036-11-10 10:00',
        'Ana Tester',
        'Main office',
        'delivered',
        invoice.number,
        ...amounts(a1, 1_100),
      ],
      [a2.id, '', '2036-11-30 23:30', 'Ana Tester', 'Main office', 'pending', '', ...amounts(a2, 0)],
    ]);
    // Every counted order carries tax and shipping, so Net is more than the goods.
    for (const order of [a1, a2]) expect([order.taxCents > 0, order.shippingCents > 0], order.id).toEqual([true, true]);
    // A bookkeeper's first check: the Net column sums to the page's total, cents included.
    const net = rows.reduce((total, row) => total + Math.round(Number(row[11]) * 100), 0);
    expect(usd(net)).toBe(pageTotal);
    // Quoted as RFC 4180 asks: the field in quotes, each quote doubled, the apostrophe inside.
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil.test/x"",""Invoice"")"`);
  });

  it('refuses a buyer: no Spending link, and the page and the CSV are the 403 page', async () => {
    const { grace, ana } = await anOffice();
    const approverHome = await grace.module.get(grace.module.base);
    expect(approverHome.text).toContain(`href="${grace.module.base}/spending">Spending</a>`);
    const buyerHome = await ana.module.get(ana.module.base);
    expect(buyerHome.text).not.toContain('/spending');

    for (const path of ['/spending', '/spending?month=2036-11', '/spending/csv?month=2036-11']) {
      const refused = await ana.module.get(`${ana.module.base}${path}`);
      expect(refused.status, path).toBe(403);
      expect(refused.text).toContain('Only approvers see spending');
      expect(refused.text).not.toContain('Ana Tester,');
      expect(refused.text).not.toContain('$');
    }
  });
});
