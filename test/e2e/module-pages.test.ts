/**
 * Every page of the procurement module, for a buyer and an approver (with the `Approvals` link), in headless Chromium
 * (#35 items 9 to 12): no page scrolls sideways at 360 and 390 px; approval rows stay readable at 390 px; the signed-in
 * user stays visible on phones; axe finds no serious or critical violation; the module's own script applies Sort and
 * the Status filter on change and shows the selected location's totals at checkout, so the order ships there; an add
 * from a card comes back at the card; the cart, checkout, order guide, order and request pages show the pictures; the
 * order page's Invoice section and the Invoices page (with an overdue invoice) are among the pages, and so are Orders
 * search results and the approver's Spending page, whose By user table scrolls in its box at 390 px (axe: the box is
 * reachable by keyboard); at 390 px the Orders search placeholder fits its box and each filter label sits beside its
 * control.
 * Screenshots at 1280 and 390 px go to test/artifacts/ (`module-pages-*`). Needs /usr/bin/chromium.
 */
import { resolve } from 'node:path';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '../../functions/adapters/aws/dynamodb-client';
import { DynamoInvoiceRepository } from '../../functions/adapters/dynamodb/dynamodb-invoice-repository';
import { invoiceIdFor } from '../../functions/domain/billing/invoice';
import { tableName } from '../../functions/resources/resource-definitions';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { ARTIFACTS, launchChromium, skipWithoutChromium } from '../support/chromium';
import { startTestStack, type TestStack } from '../support/test-stack';

const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';
const PRACTICE = {
  internalOrgId: 'e2e-pages-dental',
  organizationName: 'Riverside Family Dental and Orthodontics',
  shippingLocations: [
    {
      internalShippingLocationId: 'austin',
      name: 'Austin clinic',
      address: { line1: '500 Congress Ave', city: 'Austin', province: 'TX', postalCode: '78701' },
      isDefault: true,
    },
    {
      internalShippingLocationId: 'sacramento',
      name: 'Sacramento clinic',
      address: { line1: '1 Market St', city: 'San Francisco', province: 'CA', postalCode: '94105' },
    },
  ],
};

describe.skipIf(skipWithoutChromium)('every module page, for a buyer and an approver, in headless Chromium', () => {
  let stack: TestStack;
  let partner: { partnerId: PartnerId; apiKey: string };
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let base: string;

  beforeAll(async () => {
    stack = await startTestStack({ queuePollers: false });
    partner = await stack.createPartner();
    browser = await launchChromium();
    base = `${stack.url}/embedded/${partner.partnerId}`;
  }, 90_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  /** Sets the user up through the setup API and signs in; `bypassCSP` only so axe's script can be injected. */
  async function signedIn(internalUserId: string, user: Record<string, unknown>): Promise<Page> {
    const bearer = { Authorization: `Bearer ${partner.apiKey}` };
    const setup = await stack.post('/v1/organizations/setup', { ...PRACTICE, internalUserId, user }, bearer);
    expect(setup.status, setup.text).toBe(200);
    const shake = await stack.post(
      '/v1/partner/handshake',
      { internal_user_id: internalUserId, internal_org_id: PRACTICE.internalOrgId },
      { 'X-API-Key': partner.apiKey },
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/Chicago' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(shake.body.iframe_embed_url);
    return page;
  }

  /** Ships the order and records the invoice the invoicing consumer (not running here) would, overdue so its row stands out. */
  async function shippedAndInvoicedOverdue(orderId: string): Promise<void> {
    const order = await stack.deps.orderService.get(orderId, { partnerId: partner.partnerId });
    const scope = { partnerId: partner.partnerId, organizationId: order.organizationId };
    await stack.deps.orderService.transition(orderId, 'confirm', {}, scope);
    await stack.deps.orderService.transition(
      orderId,
      'ship',
      {
        carrier: 'UPS',
        tracking_number: '1Z999AA10123456784',
        tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        estimated_delivery: '2036-12-05T17:00:00.000Z',
      },
      scope,
    );
    const now = stack.clock.now().toISOString();
    await new DynamoInvoiceRepository(
      createDocumentClient(inject('standIns').endpoints.dynamodb),
      tableName(stack.config.RESOURCE_PREFIX, 'orders'),
      stack.clock,
    ).record({
      id: invoiceIdFor(orderId),
      orderId,
      partnerId: partner.partnerId,
      organizationId: order.organizationId,
      internalOrgId: order.internalOrgId,
      stripeInvoiceId: 'in_pages',
      number: 'RIVERSIDE-0001',
      status: 'overdue',
      totalCents: order.totalCents,
      amountDueCents: order.totalCents,
      amountPaidCents: 0,
      amountCreditedCents: 0,
      dueDate: now,
      hostedInvoiceUrl: `${stack.url}/nowhere/in_pages`,
      invoicePdf: `${stack.url}/nowhere/in_pages/pdf`,
      creditNotes: [],
      issuedAt: now,
      updatedAt: now,
      version: 1,
    });
  }

  const total = async (page: Page) => ((await page.getByTestId('order-total').textContent()) ?? '').trim();

  it('checkout with script: choosing another location shows its totals at once, and the order ships there', async () => {
    const buyer = await signedIn('pages-checkout', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@riverside.test',
    });
    await buyer.goto(`${base}/products/GLV-NIT-M-100`);
    await buyer.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await buyer.goto(`${base}/checkout`);
    const austinTotal = await total(buyer);
    await buyer.getByRole('radio', { name: /Sacramento clinic/ }).check();
    await expect.poll(() => total(buyer)).not.toBe(austinTotal);
    // Stripe Tax's combined rate for the address (the stand-in's San Francisco, docs/billing.md).
    expect(await buyer.getByText('Tax (California 8.625%)').count()).toBe(1);
    const sacramentoTotal = await total(buyer);
    expect(buyer.url()).toBe(`${base}/checkout`);
    await buyer.getByRole('button', { name: 'Place order' }).click();
    await buyer.getByRole('heading', { name: 'Order placed' }).waitFor();
    expect(await total(buyer)).toBe(sacramentoTotal);
    expect(await buyer.locator('main').textContent()).toContain('Sacramento clinic');
  }, 60_000);

  it('no page scrolls sideways at 360 or 390 px, axe finds nothing serious, and the store habits hold', async () => {
    const buyer = await signedIn('pages-buyer', {
      firstName: 'Maximiliana',
      lastName: 'Vanderberg-Castellanos',
      email: 'maximiliana.vanderberg-castellanos@riverside-family-dental.test',
      orderLimit: 50,
    });
    const approver = await signedIn('pages-approver', {
      firstName: 'Bartholomew',
      lastName: 'Okonkwo-Fitzgerald',
      email: 'bartholomew.okonkwo-fitzgerald@riverside-family-dental.test',
      role: 'approver',
    });

    // An order, an order-guide line, and a request waiting, so every page has something to show.
    await buyer.goto(`${base}/products/GLV-NIT-M-100`);
    await buyer.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await buyer.goto(`${base}/checkout`);
    await buyer.getByRole('button', { name: 'Place order' }).click();
    await buyer.getByRole('heading', { name: 'Order placed' }).waitFor();
    const orderPath = new URL(buyer.url()).pathname;
    await buyer.goto(`${base}/products/GLV-NIT-M-100`);
    await buyer.getByRole('spinbutton', { name: `Quantity of ${GLOVES}`, exact: true }).fill('5');
    await buyer.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await buyer.goto(`${base}/checkout`);
    await buyer.getByRole('button', { name: 'Submit for approval' }).click();
    await buyer.getByRole('heading', { name: 'Submitted for approval' }).waitFor();
    const requestPath = new URL(buyer.url()).pathname;

    await approver.goto(`${base}/products/GLV-NIT-M-100`);
    await approver.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await approver.getByRole('status').filter({ hasText: GLOVES }).waitFor();

    // Store habits: an add from a card far down comes back at that card; Sort and Status apply on change.
    await buyer.goto(`${base}?sort=price-desc`);
    const cards = buyer.locator('li.product');
    const last = cards.nth((await cards.count()) - 1);
    const lastName = ((await last.getByRole('heading').textContent()) ?? '').trim();
    await last.getByRole('button', { name: `Add ${lastName} to order guide` }).waitFor();
    await last.getByRole('button', { name: `Add ${lastName} to cart` }).click();
    await buyer.waitForURL(/#card-/);
    const card = buyer.locator(new URL(buyer.url()).hash);
    expect(await card.getByRole('heading').textContent()).toBe(lastName);
    expect(await buyer.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    expect(await card.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(900);
    await last.getByRole('button', { name: `Add ${lastName} to order guide` }).click();
    await buyer.getByRole('heading', { name: 'Order guide' }).waitFor();

    await buyer.goto(base);
    await buyer.getByRole('combobox', { name: 'Sort' }).selectOption('price');
    await buyer.waitForURL(/sort=price$/);
    await buyer.goto(`${base}/orders`);
    await buyer.getByRole('combobox', { name: 'Status' }).selectOption('pending');
    await buyer.waitForURL(/status=pending/);
    await buyer
      .getByRole('link', { name: /^Order [0-9a-f]{8}$/ })
      .first()
      .waitFor();

    await shippedAndInvoicedOverdue(orderPath.split('/').at(-1) as string);

    const pages = {
      catalog: '',
      product: '/products/GLV-NIT-M-100',
      guide: '/order-guide',
      cart: '/cart',
      checkout: '/checkout',
      orders: '/orders',
      order: orderPath.slice(`/embedded/${partner.partnerId}`.length),
      invoices: '/invoices',
      approvals: '/approvals',
      request: requestPath.slice(`/embedded/${partner.partnerId}`.length),
      search: '/orders?q=nitrile',
      spending: '/spending',
    };
    const withPictures = new Set(['guide', 'cart', 'checkout', 'order', 'request']);
    const wide: string[] = [];
    const violations: string[] = [];
    const layoutIssues: string[] = [];
    for (const [role, page] of [
      ['buyer', buyer],
      ['approver', approver],
    ] as const) {
      for (const [name, path] of Object.entries(pages)) {
        if (name === 'spending' && role === 'buyer') continue; // Approvers' only.
        for (const width of [360, 390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${base}${path}`);
          const { scrollWidth, clientWidth } = await page.evaluate(() => ({
            scrollWidth: document.documentElement.scrollWidth,
            clientWidth: document.documentElement.clientWidth,
          }));
          if (scrollWidth > clientWidth) wide.push(`${role} ${name} at ${width}: ${scrollWidth} > ${clientWidth}`);
          if (width < 1280) expect(await page.getByTestId('user-name').isVisible(), `${role} ${name}`).toBe(true);
          if (width === 390 || width === 1280) {
            await page.screenshot({
              path: resolve(ARTIFACTS, `module-pages-${role}-${name}-${width}.png`),
              fullPage: true,
            });
          }
          if (width === 390) {
            const found = await axeSeriousViolations(page);
            violations.push(...found.map((v) => `${role} ${name}: ${v}`));
            if (name === 'orders' || name === 'search') {
              layoutIssues.push(...(await cutPlaceholdersOf(page)));
              // Each filter label on its control's line, never left at the end of the line above it.
              const apart = await page
                .locator('form.filter label')
                .evaluateAll((labels) =>
                  (labels as HTMLLabelElement[])
                    .filter(
                      (l) => Math.abs(l.getBoundingClientRect().top - l.control!.getBoundingClientRect().top) > 20,
                    )
                    .map((l) => l.htmlFor),
                );
              layoutIssues.push(...apart.map((id) => `${role} ${name}: label ${id} apart from its control`));
            }
            if (role === 'approver' && name === 'spending') {
              // The check means something only while the By user table is wider than its box (so it scrolls).
              const users = page.locator('section.boxed', { has: page.getByTestId('spend-users') });
              expect(await users.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
            }
          }
        }
        if (withPictures.has(name)) {
          const pictures = page.locator('main img.pic');
          expect(await pictures.count(), `${role} ${name}`).toBeGreaterThan(0);
          await pictures.first().scrollIntoViewIfNeeded();
          await expect
            .poll(() => pictures.first().evaluate((img: HTMLImageElement) => img.naturalWidth))
            .toBeGreaterThan(0);
        }
      }
    }
    expect(wide).toEqual([]);
    expect([...violations, ...layoutIssues]).toEqual([]);

    // Approval rows at 390 px: the requester, its e-mail and the items get the row's width, so they break at most
    // where a line is full, never word by word in a squeezed column.
    await approver.setViewportSize({ width: 390, height: 900 });
    await approver.goto(`${base}/approvals`);
    const widths = await approver
      .locator('.requests .meta')
      .evaluateAll((elements) => elements.map((el) => el.getBoundingClientRect().width));
    expect(widths.length).toBeGreaterThan(1);
    for (const width of widths) expect(width).toBeGreaterThan(300);
  }, 300_000);

  /** Inputs whose placeholder is wider than the room inside them (the browser cuts it), each as "id: text". */
  async function cutPlaceholdersOf(page: Page): Promise<string[]> {
    return page.locator('input[placeholder]').evaluateAll((inputs) => {
      const context = document.createElement('canvas').getContext('2d')!;
      return (inputs as HTMLInputElement[]).flatMap((input) => {
        const style = getComputedStyle(input);
        context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(input.placeholder).width > room ? [`${input.id}: ${input.placeholder}`] : [];
      });
    });
  }

  /** axe-core's serious and critical violations on the page as it is, each as "rule: target". */
  async function axeSeriousViolations(page: Page): Promise<string[]> {
    // The page's CSP (script-src 'self') refuses an injected script; evaluate runs in the page without a tag.
    await page.evaluate(axe.source);
    const results = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations;
    });
    return results
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }
});

interface AxeViolation {
  readonly id: string;
  readonly impact?: string | null;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}
