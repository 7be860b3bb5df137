/**
 * Billing as a buyer sees it, in headless Chromium on the local stack (queue consumers and
 * the Stripe stand-in running): an order placed in the module and shipped through the
 * sandbox route is invoiced by the invoicing consumer; its invoice shows on the order page
 * and on Invoices at 1280 and 390 px; the partner's CI pays it through the sandbox route
 * (Stripe's invoice.paid comes back through the service's Stripe route), the buyer sees
 * `Paid` after a reload, and the partner has received invoice.issued and invoice.paid.
 * Screenshots `module-invoice-*` go to test/artifacts/. Needs /usr/bin/chromium.
 */
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { ARTIFACTS, launchChromium, skipWithoutChromium } from '../support/chromium';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';
const PRACTICE = {
  internalOrgId: 'e2e-invoices-dental',
  organizationName: 'Lakeside Dental',
  shippingLocations: [
    {
      internalShippingLocationId: 'austin',
      name: 'Austin clinic',
      address: { line1: '500 Congress Ave', city: 'Austin', province: 'TX', postalCode: '78701' },
      isDefault: true,
    },
  ],
};

describe.skipIf(skipWithoutChromium)('an invoice in the module, from shipment to paid, in headless Chromium', () => {
  let stack: TestStack;
  let partner: { partnerId: PartnerId; apiKey: string };
  let receiver: WebhookReceiver;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let shippedOrder: { buyer: Page; orderId: string; orderUrl: string; number: string } | undefined;

  beforeAll(async () => {
    stack = await startTestStack();
    partner = await stack.createPartner();
    receiver = await startWebhookReceiver(() => 200);
    // The invoice kinds are opt-in per endpoint, as a partner's operator subscribes them.
    await webhookSet(stack.deps, {
      partner: partner.partnerId,
      url: receiver.url,
      events: 'order.shipped,invoice.issued,invoice.paid',
    });
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await receiver?.close();
    await stack?.close();
  });

  /** The invoice.* kinds the partner's endpoint has received about the order, in arrival order. */
  const invoiceWebhooks = (orderId: string) =>
    receiver.requests
      .map((request) => JSON.parse(request.rawBody.toString('utf8')))
      .filter((body) => String(body.event).startsWith('invoice.') && body.data?.order_id === orderId);

  async function signedIn(): Promise<Page> {
    const bearer = { Authorization: `Bearer ${partner.apiKey}` };
    const user = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@lakeside.test' };
    const setup = await stack.post('/v1/organizations/setup', { ...PRACTICE, internalUserId: 'ada', user }, bearer);
    expect(setup.status, setup.text).toBe(200);
    const shake = await stack.post(
      '/v1/partner/handshake',
      { internal_user_id: 'ada', internal_org_id: PRACTICE.internalOrgId },
      { 'X-API-Key': partner.apiKey },
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/Chicago' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(shake.body.iframe_embed_url);
    return page;
  }

  async function shots(page: Page, name: string): Promise<void> {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, `${name} at ${width}`).toBeLessThanOrEqual(clientWidth);
      await page.screenshot({ path: resolve(ARTIFACTS, `module-invoice-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('ships an order and finds its invoice on the order page and under Invoices', async () => {
    const buyer = await signedIn();
    const base = `${stack.url}/embedded/${partner.partnerId}`;
    await buyer.goto(`${base}/products/GLV-NIT-M-100`);
    await buyer.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await buyer.goto(`${base}/checkout`);
    await buyer.getByRole('button', { name: 'Place order' }).click();
    await buyer.getByRole('heading', { name: 'Order placed' }).waitFor();
    const orderId = ((await buyer.getByTestId('order-id').textContent()) ?? '').trim();
    const orderUrl = `${base}/orders/${orderId}`;
    await buyer.goto(orderUrl);
    expect(await buyer.getByRole('heading', { name: 'Invoice', exact: true }).count()).toBe(0);

    const bearer = { Authorization: `Bearer ${partner.apiKey}` };
    expect((await stack.post(`/v1/sandbox/orders/${orderId}/confirm`, {}, bearer)).status).toBe(200);
    const shipped = await stack.post(
      `/v1/sandbox/orders/${orderId}/ship`,
      {
        carrier: 'UPS',
        tracking_number: '1Z999AA10123456784',
        tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        estimated_delivery: '2036-12-05T17:00:00.000Z',
      },
      bearer,
    );
    expect(shipped.status, shipped.text).toBe(200);

    // The invoicing consumer issues it off the request path: reload until the page shows its number.
    const section = buyer.getByRole('region', { name: 'Invoice', exact: true });
    await expect
      .poll(
        async () => {
          await buyer.goto(orderUrl);
          return section.getByTestId('invoice-number').count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(1);
    const number = ((await section.getByTestId('invoice-number').textContent()) ?? '').trim();
    expect(await section.getByTestId('invoice-status').textContent()).toBe('Open');
    const view = section.getByRole('link', { name: 'View invoice (opens in a new tab)' });
    expect(await view.getAttribute('target')).toBe('_blank');
    expect(await view.getAttribute('rel')).toContain('noopener');
    expect(await section.getByRole('link', { name: 'Download PDF (opens in a new tab)' }).count()).toBe(1);
    await shots(buyer, 'order');

    await buyer.getByRole('link', { name: 'Invoices', exact: true }).click();
    await buyer.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
    const row = buyer.getByTestId('invoice-row').filter({ hasText: number });
    expect(await row.getByTestId('invoice-status').textContent()).toBe('Open');
    expect(await row.getByRole('link', { name: `Order ${orderId.slice(0, 8)}` }).getAttribute('href')).toBe(
      new URL(orderUrl).pathname,
    );
    expect(await buyer.getByTestId('open-total').textContent()).not.toBe('$0.00');
    await shots(buyer, 'list');
    shippedOrder = { buyer, orderId, orderUrl, number };
  }, 120_000);

  it('pays it through the sandbox route: the buyer sees Paid after a reload, the partner received invoice.issued and invoice.paid', async () => {
    expect(shippedOrder, 'the invoice found above').toBeDefined();
    const { buyer, orderId, orderUrl, number } = shippedOrder!;
    const bearer = { Authorization: `Bearer ${partner.apiKey}` };
    const listed = await stack.get(
      `/v1/invoices?internal_org_id=${PRACTICE.internalOrgId}&order_id=${orderId}`,
      bearer,
    );
    expect(listed.body.data, listed.text).toHaveLength(1);
    const invoiceId = listed.body.data[0].id as string;
    expect(listed.body.data[0]).toMatchObject({ number, status: 'open' });

    const paid = await stack.post(`/v1/sandbox/invoices/${invoiceId}/pay`, {}, bearer);
    expect(paid.status, paid.text).toBe(202);

    // Stripe's invoice.paid reaches the service through its Stripe route; the page shows it after a reload.
    const section = buyer.getByRole('region', { name: 'Invoice', exact: true });
    await buyer.goto(orderUrl);
    await expect
      .poll(
        async () => {
          await buyer.reload();
          return section.getByTestId('invoice-status').textContent();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe('Paid');
    await shots(buyer, 'paid');
    await buyer.goto(`${new URL(orderUrl).origin}/embedded/${partner.partnerId}/invoices?status=paid`);
    const row = buyer.getByTestId('invoice-row').filter({ hasText: number });
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId('invoice-status').textContent()).toBe('Paid');
    await shots(buyer, 'list-paid');

    await expect
      .poll(() => invoiceWebhooks(orderId).map((body) => body.event as string), { timeout: 30_000, interval: 250 })
      .toEqual(['invoice.issued', 'invoice.paid']);
    const [issued, paidEvent] = invoiceWebhooks(orderId);
    expect(issued.data).toMatchObject({ partner_org_id: PRACTICE.internalOrgId, invoice: { id: invoiceId, number } });
    expect(paidEvent.data.invoice).toMatchObject({ id: invoiceId, status: 'paid', amount_due: 0 });
  }, 120_000);
});
