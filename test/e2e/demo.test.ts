/**
 * The demo partner app in a real browser: headless Chromium opens /demo, picks a user,
 * and sees the embedded module signed in as that user; the used iframe URL then gets the
 * 401 page. Needs Debian's `chromium` (/usr/bin/chromium); skipped without it except on
 * CI, where a missing browser must fail the run.
 */
import { resolve } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { createDemoApp, type DemoConnection } from '../../lib/local-runtime/demo-app';
import { ARTIFACTS, launchChromium, skipWithoutChromium } from '../support/chromium';
import { startTestStack, type TestStack } from '../support/test-stack';

const skip = skipWithoutChromium;
if (skip) {
  process.stderr.write(
    `\n[e2e] SKIPPED test/e2e/demo.test.ts: /usr/bin/chromium not found (install the Debian package "chromium"). On CI it runs and fails instead.\n\n`,
  );
}
const EXPIRED_MESSAGE = 'This link has expired or was already used. Please reopen the module from your application.';

describe.skipIf(skip)(
  `the demo partner app in headless Chromium${skip ? ' (skipped: no /usr/bin/chromium)' : ''}`,
  () => {
    let stack: TestStack;
    let partner: { partnerId: PartnerId; apiKey: string };
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      let connect: (connection: DemoConnection) => void = () => undefined;
      const connection = new Promise<DemoConnection>((done) => {
        connect = done;
      });
      // The demo's own way in: its users are provisioned through POST /v1/organizations/setup.
      stack = await startTestStack({ pages: [createDemoApp({ connection: () => connection })] });
      partner = await stack.createPartner();
      connect({ apiUrl: stack.url, apiKey: partner.apiKey });

      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await stack?.close();
    });

    const moduleFrame = (): Frame => {
      const frame = page.frames().find((f) => f.url().includes('/embedded/'));
      if (!frame) throw new Error('the demo page has no iframe');
      return frame;
    };

    it('embeds the module signed in as the chosen user, without the key in the page or the token in the iframe URL', async () => {
      await page.goto(`${stack.url}/demo`);
      await page.getByRole('link', { name: /Ada Lovelace/ }).click();

      const module = page.frameLocator('iframe[title="Supplies module"]');
      await module.getByTestId('user-name').waitFor({ timeout: 15_000 });
      expect(await module.getByTestId('user-name').textContent()).toBe('Ada Lovelace');
      expect(await module.getByTestId('user-email').textContent()).toBe('ada@acme-dental.test');
      expect(await module.locator('.brand b').textContent()).toBe('Acme Dental');
      await module.getByRole('searchbox', { name: 'Search supplies' }).waitFor();

      // The SDK mounted it: its events are listed beside the module.
      const ready = page.getByTestId('embed-event').filter({ hasText: /^ready/ });
      await ready.waitFor();
      expect(await ready.textContent()).toContain('{"page":"catalog"}');

      expect(moduleFrame().url()).toBe(`${stack.url}/embedded/${partner.partnerId}`);
      expect(await page.content()).not.toContain(partner.apiKey);

      await page.screenshot({ path: resolve(ARTIFACTS, 'demo.png'), fullPage: true });
    });

    it('is usable 390 px wide: the module and its event log one above the other, nothing wider than the screen', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('embed-event').first().waitFor();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBe(0);
      // Every user is on screen (the list wraps), and the module scrolls with the page, not inside a box of its own.
      for (const name of [/Ada Lovelace/, /Grace Hopper/, /Katherine Johnson/]) {
        const box = await page.getByRole('link', { name }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390, String(name)).toBe(true);
      }
      expect(await page.locator('#supplies').evaluate((module) => module.scrollHeight - module.clientHeight)).toBe(0);
      await page.screenshot({ path: resolve(ARTIFACTS, 'demo-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1200, height: 760 });
    });

    it('shows the 401 page when the used iframe URL is loaded again', async () => {
      const usedUrl = await page.locator('iframe[title="Supplies module"]').getAttribute('src');
      // The embed SDK adds the browser's time zone (`tz`) after the key.
      expect(usedUrl).toMatch(/\?session_key=[0-9a-f]{64}(&tz=[^&]+)?$/);

      const response = await moduleFrame().goto(usedUrl as string);
      expect(response?.status()).toBe(401);
      expect(await moduleFrame().locator('body').textContent()).toContain(EXPIRED_MESSAGE);
    });

    it('opens a fresh session for another user, and signing out shows the signed-out page', async () => {
      await page.getByRole('link', { name: /Katherine Johnson/ }).click();
      const module = page.frameLocator('iframe[title="Supplies module"]');
      await module.getByTestId('user-name').waitFor({ timeout: 15_000 });
      expect(await module.getByTestId('user-name').textContent()).toBe('Katherine Johnson');
      expect(await module.locator('.brand b').textContent()).toBe('Blue Ridge Veterinary');

      await module.getByRole('button', { name: 'Sign out' }).click();
      await module.getByText('You have signed out').waitFor({ timeout: 15_000 });

      const reloaded = await moduleFrame().goto(`${stack.url}/embedded/${partner.partnerId}`);
      expect(reloaded?.status()).toBe(401);
    });
  },
);
