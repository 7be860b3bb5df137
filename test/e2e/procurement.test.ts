/**
 * The whole loop in headless Chromium, as a newcomer meets it in the demo: sign in as a
 * demo user, search, add two products, change a quantity, place the order and find it
 * under Orders; beside the module, the demo partner's receiver gets exactly one signed
 * order.created with the items and totals the page showed. Screenshots at 1280 and 390
 * px go to test/artifacts/. Needs /usr/bin/chromium (skipped without it, except on CI).
 */
import { resolve } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, toCents } from '../../functions/domain/money';
import type { DemoWebhookReceiver } from '../../lib/local-runtime/demo-webhook-receiver';
import { ARTIFACTS, launchChromium, skipWithoutChromium, startDemoStack } from '../support/chromium';
import type { TestStack } from '../support/test-stack';

const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';
const PAPER = 'Copy Paper, Letter, 20 lb';

describe.skipIf(skipWithoutChromium)('ordering supplies through the demo, in headless Chromium', () => {
  let stack: TestStack;
  let receiver: DemoWebhookReceiver;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ stack, receiver } = await startDemoStack());
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const module = (): FrameLocator => page.frameLocator('iframe[title="Supplies module"]');
  const webhookLog = (): FrameLocator => page.frameLocator('iframe[title="Webhooks received"]');
  const shown = async (testId: string) => ((await module().getByTestId(testId).textContent()) ?? '').trim();

  it('searches, fills a cart, places the order, finds it under Orders, and the partner gets one signed order.created', async () => {
    await page.goto(`${stack.url}/demo`);
    await page.getByRole('link', { name: /Ada Lovelace/ }).click();

    const search = module().getByRole('searchbox', { name: 'Search supplies' });
    await search.fill('nitrile medium');
    await search.press('Enter');
    await module()
      .getByRole('button', { name: `Add ${GLOVES} to cart` })
      .click();
    await module().getByRole('status').filter({ hasText: GLOVES }).waitFor();
    await module().getByRole('searchbox', { name: 'Search supplies' }).fill('copy paper');
    await module().getByRole('button', { name: 'Search' }).click();
    await module()
      .getByRole('button', { name: `Add ${PAPER} to cart` })
      .click();
    await module().getByRole('status').filter({ hasText: PAPER }).waitFor();
    await module().getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    await page.screenshot({ path: resolve(ARTIFACTS, 'module-catalog-1280.png') });

    await module().getByRole('link', { name: /Cart/ }).click();
    await module().getByLabel(`Quantity of ${GLOVES}`).fill('3');
    await module()
      .getByRole('button', { name: `Update quantity of ${GLOVES}` })
      .click();
    await module().getByRole('link', { name: 'Cart, 4 items' }).waitFor();

    await module().getByRole('link', { name: 'Checkout' }).click();
    const radio = module().getByRole('radio', { name: /Main clinic/ });
    expect(await radio.isChecked()).toBe(true);
    const sums = module().locator('.sums dd');
    const [subtotal, tax, shipping, total] = (await sums.allTextContents()).map((text) => text.trim());
    await page.screenshot({ path: resolve(ARTIFACTS, 'module-checkout-1280.png') });

    await module().getByRole('button', { name: 'Place order' }).click();
    await module().getByRole('heading', { name: 'Order placed' }).waitFor();
    const orderId = await shown('order-id');
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await shown('order-total')).toBe(total);

    await module().getByRole('link', { name: 'Orders', exact: true }).click();
    const row = module()
      .getByRole('listitem')
      .filter({ has: module().getByRole('link', { name: `Order ${orderId.slice(0, 8)}` }) });
    expect((await row.getByTestId('order-status').textContent())?.trim()).toBe('Pending');

    await webhookLog().getByText('order.created').waitFor({ timeout: 30_000 });
    expect(await webhookLog().getByTestId('webhook').filter({ hasText: 'order.created' }).textContent()).toContain(
      '✓ verified',
    );
    await page.screenshot({ path: resolve(ARTIFACTS, 'module-1280.png') });

    const forOrder = receiver.list().filter((hook) => hook.body?.data?.order_id === orderId);
    expect(forOrder).toHaveLength(1);
    const [created] = forOrder;
    expect(created).toMatchObject({ verified: true, body: { event: 'order.created' } });
    const data = created!.body!.data as Record<string, unknown>;
    expect(data.items).toEqual([
      expect.objectContaining({ product_id: 'GLV-NIT-M-100', name: GLOVES, quantity: 3 }),
      expect.objectContaining({ product_id: 'PPR-LTR-5000', name: PAPER, quantity: 1 }),
    ]);
    const money = (value: unknown) => formatUsd(toCents(value as number));
    expect([
      money(data.subtotal),
      money(data.tax),
      data.shipping === 0 ? 'Free' : money(data.shipping),
      money(data.total),
    ]).toEqual([subtotal, tax, shipping, total]);
  }, 120_000);

  it('is usable 390 px wide: the catalog, the order and the webhook beside it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await module().getByRole('searchbox', { name: 'Search supplies' }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await page.screenshot({ path: resolve(ARTIFACTS, 'module-catalog-390.png'), fullPage: true });

    await module().getByRole('link', { name: 'Orders', exact: true }).click();
    await module()
      .getByRole('link', { name: /^Order [0-9a-f]{8}$/ })
      .first()
      .click();
    await module().getByRole('heading', { name: 'Status history' }).waitFor();
    await page.screenshot({ path: resolve(ARTIFACTS, 'module-390.png'), fullPage: true });
  }, 60_000);
});
