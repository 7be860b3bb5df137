/**
 * Issue 38's whole loop in headless Chromium, at 1280 and at 390 px: a buyer with a $100
 * monthly limit places one order and is sent to approval by the second; the owner rejects
 * it; the buyer presses `Edit and resubmit` and submits again; the owner approves with a
 * comment the buyer reads on the order; the owner finds the order by its PO number with
 * `Search orders`, opens `Spending`, sees the month's totals (equal to the stored orders to
 * the cent, the page no wider than the screen) and downloads the month's CSV (its rows
 * checked). Screenshots of the Spending page go to test/artifacts/. Needs /usr/bin/chromium
 * (skipped without it, except on CI).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, type Cents } from '../../functions/domain/money';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { ARTIFACTS, launchChromium, skipWithoutChromium } from '../support/chromium';
import { signedInToPractice } from '../support/practice-browser';
import { startTestStack, type TestStack } from '../support/test-stack';

const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';
const practiceOf = (width: number) => ({
  internalOrgId: `e2e-spending-${width}`,
  organizationName: `Spending Dental ${width}`,
  shippingLocations: [
    {
      internalShippingLocationId: 'main',
      name: 'Main clinic',
      address: { line1: '500 Congress Ave', city: 'Austin', province: 'TX', postalCode: '78701' },
      isDefault: true,
    },
  ],
});

describe.skipIf(skipWithoutChromium)('the spending loop in headless Chromium', () => {
  let stack: TestStack;
  let partner: { partnerId: PartnerId; apiKey: string };
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ queuePollers: false });
    partner = await stack.createPartner();
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    for (const page of pages) await page.context().close();
    await browser?.close();
    await stack?.close();
  });

  /** Five boxes of gloves ($62.45 before tax) into the cart, then checkout. */
  async function fiveGlovesToCheckout(buyer: Page): Promise<void> {
    await buyer.goto(`${stack.url}/embedded/${partner.partnerId}/products/GLV-NIT-M-100`);
    await buyer.getByRole('spinbutton', { name: `Quantity of ${GLOVES}`, exact: true }).fill('5');
    await buyer.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await buyer.getByRole('link', { name: 'Cart, 5 items' }).click();
    await buyer.getByRole('link', { name: 'Checkout' }).click();
  }

  for (const width of [1280, 390]) {
    it(`at ${width} px: order, approval, rejection, resubmission, approval with a comment, search, Spending and its CSV`, async () => {
      const practice = practiceOf(width);
      const person = async (internalUserId: string, user: Record<string, unknown>) => {
        const page = await signedInToPractice(stack, partner, browser, { practice, internalUserId, user, width });
        pages.push(page);
        return page;
      };
      const buyer = await person(`buyer-${width}`, {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: `ada-${width}@spending-dental.test`,
        monthlyLimit: 100,
      });
      const owner = await person(`owner-${width}`, {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: `grace-${width}@spending-dental.test`,
        role: 'approver',
      });
      expect(await buyer.getByRole('link', { name: 'Spending' }).count()).toBe(0);

      // The first order fits the month's $100.
      await fiveGlovesToCheckout(buyer);
      await buyer.getByTestId('month-spend').filter({ hasText: '$0.00 of $100.00 spent this month' }).waitFor();
      await buyer.getByRole('textbox', { name: /PO number/ }).fill(`PO-FIRST-${width}`);
      await buyer.getByRole('button', { name: 'Place order' }).click();
      await buyer.getByRole('heading', { name: 'Order placed' }).waitFor();

      // The second would pass it: approval, which the owner rejects.
      await fiveGlovesToCheckout(buyer);
      await buyer.getByRole('button', { name: 'Submit for approval' }).waitFor();
      expect(await buyer.getByRole('button', { name: 'Place order' }).count()).toBe(0);
      await buyer.getByRole('button', { name: 'Submit for approval' }).click();
      await buyer.getByRole('heading', { name: 'Submitted for approval' }).waitFor();
      expect(await buyer.getByTestId('limit-reason').textContent()).toContain('monthly limit');
      const first = ((await buyer.getByTestId('approval-request-id').textContent()) ?? '').trim();

      await owner.reload();
      await owner.getByRole('link', { name: 'Approvals (1 waiting)' }).click();
      await owner.getByRole('link', { name: `Request ${first.slice(0, 8)}` }).click();
      await owner.getByRole('textbox', { name: 'Reason for rejecting' }).fill('Add the PO number first.');
      await owner.getByRole('button', { name: 'Reject' }).click();
      await owner.getByRole('status').filter({ hasText: 'You rejected this request' }).waitFor();

      // Edit and resubmit: the lines back in the (empty) cart, then checkout submits it again.
      await buyer.reload();
      await buyer.getByTestId('rejection-reason').filter({ hasText: 'Add the PO number first.' }).waitFor();
      await buyer.getByRole('button', { name: 'Edit and resubmit' }).click();
      await buyer.getByRole('link', { name: 'Cart, 5 items' }).waitFor();
      await buyer.getByRole('link', { name: 'Checkout' }).click();
      const po = `PO-LOOP-${width}`;
      await buyer.getByRole('textbox', { name: /PO number/ }).fill(po);
      await buyer.getByRole('button', { name: 'Submit for approval' }).click();
      await buyer.getByRole('heading', { name: 'Submitted for approval' }).waitFor();
      await buyer.getByTestId('resubmitted-from').waitFor();
      const second = ((await buyer.getByTestId('approval-request-id').textContent()) ?? '').trim();

      await owner.reload();
      await owner.getByRole('link', { name: 'Approvals (1 waiting)' }).click();
      await owner.getByRole('link', { name: `Request ${second.slice(0, 8)}` }).click();
      await owner.getByRole('textbox', { name: 'Comment for the requester (optional)' }).fill('Approved: PO added.');
      await owner.getByRole('button', { name: 'Approve' }).click();
      await owner.getByRole('status').filter({ hasText: 'You approved this request' }).waitFor();

      await buyer.reload();
      await buyer.getByRole('link', { name: /^Order [0-9a-f]{8}$/ }).click();
      expect(((await buyer.getByTestId('approval-comment').textContent()) ?? '').trim()).toBe('Approved: PO added.');

      // The owner finds it by its PO number.
      await owner.getByRole('link', { name: 'Orders', exact: true }).click();
      await owner.getByRole('searchbox', { name: 'Search orders' }).fill(po);
      await owner.getByRole('button', { name: 'Filter' }).click();
      const found = owner.getByRole('link', { name: /^Order [0-9a-f]{8}$/ });
      await found.first().waitFor();
      expect(await found.count()).toBe(1);

      // Spending: the month's totals are the stored orders', to the cent.
      const organization = (await stack.deps.organizations.getOrganization(partner.partnerId, practice.internalOrgId))!;
      const { orders } = await stack.deps.orders.listByOrganization(organization.organization.id);
      expect(orders.map((o) => o.poNumber).sort()).toEqual([`PO-FIRST-${width}`, po]);
      const total = orders.reduce((sum, o) => sum + o.totalCents, 0);
      await owner.getByRole('link', { name: 'Spending' }).click();
      await owner.getByRole('heading', { name: 'Spending', level: 1 }).waitFor();
      expect(await owner.getByTestId('month-total').textContent()).toBe(formatUsd(total as Cents));
      const adaRow = owner.getByTestId('spend-users').getByRole('row', { name: /Ada Lovelace/ });
      expect(await adaRow.getByTestId('user-total').textContent()).toBe(formatUsd(total as Cents));
      await owner.getByRole('img', { name: /Placed by shipping location/ }).waitFor();
      expect(await owner.getByRole('combobox', { name: 'Month' }).inputValue()).toMatch(/^\d{4}-\d{2}$/);
      // Nothing wider than the screen: tables wrap or scroll in their own box (which clips them).
      const widest = await owner.evaluate(() => {
        const clipped = (e: Element | null): boolean =>
          e !== null && (getComputedStyle(e).overflowX !== 'visible' || clipped(e.parentElement));
        return Array.from(document.querySelectorAll('body *'))
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .filter((e) => !clipped(e.parentElement))
          .map((e) => `${e.tagName}.${e.className}`);
      });
      expect(widest).toEqual([]);
      expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await owner.screenshot({ path: resolve(ARTIFACTS, `spending-${width}.png`), fullPage: true });

      const [download] = await Promise.all([
        owner.waitForEvent('download'),
        owner.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^spending-\d{4}-\d{2}\.csv$/);
      const [header, ...rows] = parse(await readFile((await download.path()) as string, 'utf8')) as string[][];
      expect(header?.slice(0, 2)).toEqual(['Order', 'PO number']);
      // Oldest first; the manual clock gives both orders one instant, so their ids order them.
      const sorted = [...orders].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      expect(rows.map((row) => [row[0], row[1], row[3], row[7], row[11]])).toEqual(
        sorted.map((o) => [o.id, o.poNumber, 'Ada Lovelace', '62.45', (o.totalCents / 100).toFixed(2)]),
      );
      // The Net column sums to the page's total.
      const net = rows.reduce((sum, row) => sum + Math.round(Number(row[11]) * 100), 0);
      expect(formatUsd(net as Cents)).toBe(formatUsd(total as Cents));
    }, 180_000);
  }
});
