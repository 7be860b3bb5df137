/**
 * The embed SDK in headless Chromium, as a partner uses it: a partner page on its own
 * origin (another port) imports `/sdk/v1/embed.js` from the embed host and mounts the
 * module; its backend does the handshake. Every message crosses origins. Needs
 * /usr/bin/chromium (skipped without it, except on CI).
 */
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbedEvent } from '../../functions/embed-sdk/embed-events';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { launchChromium, skipWithoutChromium } from '../support/chromium';
import { startPartnerPageServer, type PartnerPageServer } from '../support/partner-page-server';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const skip = skipWithoutChromium;
const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';
const IDLE_S = 60;

describe.skipIf(skip)('the embed SDK on a partner page of another origin, in headless Chromium', () => {
  let stack: TestStack;
  let partner: { partnerId: PartnerId; apiKey: string };
  let partnerServer: PartnerPageServer;
  let browser: Browser;
  let page: Page;
  /** The partner's origin, the only one allowed to frame the module; the same server under 127.0.0.1 is another origin. */
  let allowedOrigin: string;
  let disallowedOrigin: string;

  beforeAll(async () => {
    stack = await startTestStack({ extraEnvironment: { EMBED_SESSION_IDLE_S: String(IDLE_S) } });
    partner = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    partnerServer = await startPartnerPageServer({
      embedHost: stack.url,
      apiUrl: stack.url,
      apiKey: partner.apiKey,
      profileId: profile.id,
      loadTimeoutMs: 8_000,
    });
    allowedOrigin = `http://localhost:${partnerServer.port}`;
    disallowedOrigin = `http://127.0.0.1:${partnerServer.port}`;
    await stack.deps.partners.setAllowedOrigins(partner.partnerId, [allowedOrigin]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await partnerServer?.close();
    await stack?.close();
  });

  const events = (on: Page = page): Promise<EmbedEvent[]> =>
    on.evaluate(() => (window as any).embedEvents as EmbedEvent[]);
  /** Waits (bounded) until the partner's onEvent has received `count` events of `type`, and returns them all. */
  const waitForEvents = async (type: EmbedEvent['type'], count = 1, on: Page = page): Promise<EmbedEvent[]> => {
    await on.waitForFunction(
      ([t, n]) => ((window as any).embedEvents ?? []).filter((e: EmbedEvent) => e.type === t).length >= (n as number),
      [type, count] as const,
      { timeout: 15_000 },
    );
    return events(on);
  };
  const module = (): FrameLocator => page.frameLocator('iframe[title="Supplies module"]');
  const moduleFrame = (): Frame => page.frames().find((f) => f.url().startsWith(stack.url)) as Frame;
  const iframeHeight = () =>
    page
      .locator('iframe[title="Supplies module"]')
      .evaluate((el) => (el as HTMLIFrameElement).getBoundingClientRect().height);
  const contentHeight = () =>
    moduleFrame().evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const lastResize = (list: EmbedEvent[]) =>
    list.filter((e) => e.type === 'resize').at(-1) as Extract<EmbedEvent, { type: 'resize' }>;

  it('reports ready, then resize, and the iframe height follows the content with no inner scrollbar', async () => {
    await page.goto(`${allowedOrigin}/`);
    let seen = await waitForEvents('resize');
    const types = seen.map((e) => e.type);
    expect(types.indexOf('ready')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('ready')).toBeLessThan(types.indexOf('resize'));
    expect(seen.find((e) => e.type === 'ready')).toEqual({ type: 'ready', data: { page: 'catalog' } });
    expect(seen.some((e) => e.type === 'load.error')).toBe(false);

    // The sandbox measured as the least the module works with (docs/embedding.md): without
    // allow-scripts or allow-same-origin this very test never sees `ready`. The pair cannot lift
    // the sandbox because the frame is never of the page's origin.
    const frame = await page.evaluate(() => {
      const iframe = document.querySelector('iframe') as HTMLIFrameElement;
      return {
        sandbox: (iframe.getAttribute('sandbox') ?? '').split(/\s+/).sort(),
        origin: new URL(iframe.src).origin,
        pageOrigin: location.origin,
      };
    });
    expect(frame.sandbox).toEqual([
      'allow-forms',
      'allow-popups',
      'allow-popups-to-escape-sandbox',
      'allow-same-origin',
      'allow-scripts',
    ]);
    expect(frame.origin).not.toBe(frame.pageOrigin);

    const catalogHeight = await contentHeight();
    expect(lastResize(seen).data.height).toBe(catalogHeight);
    expect(await iframeHeight()).toBe(catalogHeight);
    expect(
      await moduleFrame().evaluate(
        () => document.documentElement.scrollHeight <= document.documentElement.clientHeight,
      ),
    ).toBe(true);

    // The empty cart is much shorter than the catalog: the frame shrinks to it.
    const resizes = seen.filter((e) => e.type === 'resize').length;
    await module().getByRole('link', { name: /Cart/ }).click();
    seen = await waitForEvents('navigate');
    expect(seen.find((e) => e.type === 'navigate')).toEqual({ type: 'navigate', data: { page: 'cart' } });
    seen = await waitForEvents('resize', resizes + 1);
    const cartHeight = await contentHeight();
    expect(cartHeight).toBeLessThan(catalogHeight);
    expect(lastResize(seen).data.height).toBe(cartHeight);
    expect(await iframeHeight()).toBe(cartHeight);
  });

  it('reports cart.updated and order.created while the user orders inside the frame', async () => {
    await module().getByRole('link', { name: 'Catalog' }).click();
    // The catalog shows 24 products a page, sorted by name: find the gloves by searching, as a user would.
    const search = module().getByRole('searchbox', { name: 'Search supplies' });
    await search.fill('nitrile medium');
    await search.press('Enter');
    await module()
      .getByRole('button', { name: `Add ${GLOVES} to cart` })
      .click();
    let seen = await waitForEvents('cart.updated', 2);
    expect(seen.filter((e) => e.type === 'cart.updated').map((e) => e.data)).toEqual([
      { item_count: 0 },
      { item_count: 1 },
    ]);

    await module().getByRole('link', { name: /Cart/ }).click();
    await module().getByRole('link', { name: 'Checkout' }).click();
    await module().getByRole('button', { name: 'Place order' }).click();
    await module().getByRole('heading', { name: 'Order placed' }).waitFor();
    const orderId = ((await module().getByTestId('order-id').textContent()) ?? '').trim();
    const shownTotal = ((await module().getByTestId('order-total').textContent()) ?? '').trim();

    seen = await waitForEvents('order.created');
    const created = seen.filter((e) => e.type === 'order.created');
    expect(created).toHaveLength(1);
    expect(created[0]?.data).toMatchObject({ order_id: orderId });
    expect(`$${(created[0]?.data as { total: number }).total.toFixed(2)}`).toBe(shownTotal);
    seen = await waitForEvents('cart.updated', 3);
    expect(seen.filter((e) => e.type === 'cart.updated').at(-1)?.data).toEqual({ item_count: 0 });
  });

  it('after the idle timeout, the next interaction reports session.expired and the SDK renews the session by itself', async () => {
    expect(await page.evaluate(() => (window as any).fetchEmbedUrlCalls)).toBe(1);
    stack.clock.advance((IDLE_S + 1) * 1000);

    await module().getByRole('link', { name: 'Orders', exact: true }).click();
    const seen = await waitForEvents('ready', 2);
    const types = seen.map((e) => e.type);
    expect(types.filter((t) => t === 'session.expired')).toHaveLength(1);
    expect(types.lastIndexOf('session.expired')).toBeLessThan(types.lastIndexOf('ready'));
    expect(await page.evaluate(() => (window as any).fetchEmbedUrlCalls)).toBe(2);
    expect(partnerServer.handshakes).toBe(2);
    expect(types).not.toContain('load.error');
    // Signed in again, on a fresh session: the module, not the 401 page.
    await module().getByTestId('user-name').waitFor();
  });

  it('ignores lookalike messages from a foreign window, and the module never answers its hello', async () => {
    const before = await events();
    const heightBefore = await iframeHeight();
    await page.evaluate((src) => {
      const foreign = document.createElement('iframe');
      foreign.title = 'foreign';
      foreign.src = src;
      document.body.appendChild(foreign);
    }, `${disallowedOrigin}/foreign`);
    const foreign = page.frameLocator('iframe[title="foreign"]');
    await foreign.locator('body').waitFor({ state: 'attached' });
    const foreignFrame = page.frames().find((f) => f.url().startsWith(disallowedOrigin)) as Frame;
    await foreignFrame.waitForFunction(() => (window as any).posted === true);

    // Something real happens after the forgeries: everything between is what they caused.
    await module().getByRole('link', { name: 'Catalog' }).click();
    await waitForEvents('navigate', before.filter((e) => e.type === 'navigate').length + 1);
    const added = (await events()).slice(before.length);
    expect(added.map((e) => e.type).filter((t) => t !== 'resize')).toEqual(['navigate']);
    expect(added.find((e) => e.type === 'navigate')?.data).toEqual({ page: 'catalog' });
    expect(await page.evaluate(() => (window as any).fetchEmbedUrlCalls)).toBe(2);
    expect(await iframeHeight()).not.toBe(5000);
    expect(await iframeHeight()).toBe(await contentHeight());
    expect(heightBefore).toBeGreaterThan(0);
    expect(await foreignFrame.evaluate(() => (window as any).received)).toEqual([]);
  });

  it('on a page of an origin the partner does not allow, reports load.error frame-blocked within the timeout', async () => {
    const other = await browser.newPage();
    try {
      await other.goto(`${disallowedOrigin}/`);
      const seen = await waitForEvents('load.error', 1, other);
      expect(seen).toEqual([{ type: 'load.error', data: { reason: 'frame-blocked' } }]);
    } finally {
      await other.close();
    }
  });
});
