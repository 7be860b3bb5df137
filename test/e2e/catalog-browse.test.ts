/**
 * The catalog and a product page in headless Chromium, found by role and accessible name
 * as a screen reader user finds them: pictures load from the embed origin, Sort and the
 * pages work without script, a card's quantity adds ten at once, a product's name opens
 * its page. Screenshots of both pages at 1280 and 390 px go to test/artifacts/. Needs
 * /usr/bin/chromium (skipped without it, except on CI).
 */
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { ARTIFACTS, launchChromium, skipWithoutChromium } from '../support/chromium';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';

describe.skipIf(skipWithoutChromium)('browsing the catalog in headless Chromium', () => {
  let stack: TestStack;
  let partner: { partnerId: PartnerId; apiKey: string };
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack({ queuePollers: false });
    partner = await stack.createPartner();
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** A signed-in page: the handshake's iframe URL opened at the top level, script off (the module needs none). */
  async function signedIn(width: number): Promise<Page> {
    const buyer = await provisionProfile(stack.deps, partner.partnerId);
    const shake = await stack.post(
      '/v1/partner/handshake',
      { profile_id: buyer.profile.id },
      { 'X-API-Key': partner.apiKey },
    );
    const page = await browser.newPage({ viewport: { width, height: 900 }, javaScriptEnabled: false });
    await page.goto(shake.body.iframe_embed_url);
    return page;
  }

  const picturesLoaded = (page: Page) =>
    page.evaluate(() => Array.from(document.images).filter((image) => image.complete && image.naturalWidth > 0).length);

  it('sorts, pages, adds ten from a card and opens a product by its name, with every picture loaded', async () => {
    const page = await signedIn(1280);
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('price');
    await page.getByRole('button', { name: 'Search' }).click();
    const prices = await page.locator('.product .price').allTextContents();
    expect(prices.map((price) => Number(price.replace(/[$,]/g, '')))).toEqual(
      [...prices.map((price) => Number(price.replace(/[$,]/g, '')))].sort((a, b) => a - b),
    );
    await page.getByRole('link', { name: 'Next' }).click();
    expect(new URL(page.url()).searchParams.get('sort')).toBe('price');
    await page.getByRole('link', { name: 'Previous' }).click();

    await page.getByRole('searchbox', { name: 'Search supplies' }).fill('gloves');
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('name');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.evaluate(() =>
      Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined))),
    );
    await page.getByRole('spinbutton', { name: `Quantity of ${GLOVES}`, exact: true }).fill('10');
    await page.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await page.getByRole('status').filter({ hasText: GLOVES }).waitFor();
    await page.getByRole('link', { name: 'Cart, 10 items' }).waitFor();
    await page.evaluate(() =>
      Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined))),
    );
    await page.screenshot({ path: resolve(ARTIFACTS, 'catalog-1280.png'), fullPage: false });

    await page.getByRole('link', { name: GLOVES, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: GLOVES }).waitFor();
    await page.getByRole('img', { name: GLOVES }).first().waitFor();
    await page.getByRole('spinbutton', { name: `Quantity of ${GLOVES}`, exact: true }).waitFor();
    await page.getByRole('button', { name: `Add ${GLOVES} to cart` }).waitFor();
    expect(await page.getByRole('heading', { name: 'More in Gloves & PPE' }).count()).toBe(1);
    await page.evaluate(() =>
      Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined))),
    );
    expect(await picturesLoaded(page)).toBe(5);
    await page.screenshot({ path: resolve(ARTIFACTS, 'product-1280.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('fits 390 px without scrolling sideways, the catalog and a product page', async () => {
    const page = await signedIn(390);
    const sideways = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.evaluate(() =>
      Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined))),
    );
    expect(await sideways()).toBe(0);
    await page.screenshot({ path: resolve(ARTIFACTS, 'catalog-390.png'), fullPage: false });
    await page.goto(`${stack.url}/embedded/${partner.partnerId}/products/GLV-NIT-M-100`);
    await page.getByRole('heading', { level: 1, name: GLOVES }).waitFor();
    await page.evaluate(() =>
      Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined))),
    );
    expect(await sideways()).toBe(0);
    await page.screenshot({ path: resolve(ARTIFACTS, 'product-390.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
