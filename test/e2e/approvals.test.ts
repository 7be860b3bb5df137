/**
 * Approvals in headless Chromium, two people in two browser contexts of one practice,
 * found by role and accessible name: a buyer with a $50 order limit checks out above it
 * and sees "Submitted for approval"; an approver sees "Approvals (1 waiting)" and
 * approves, and the buyer finds the order under Orders; a second request is rejected with
 * a reason the buyer reads there. Both users are set up through the setup API with
 * `user.role` and `user.orderLimit`. Screenshots go to test/artifacts/. Needs
 * /usr/bin/chromium (skipped without it, except on CI).
 */
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { ARTIFACTS, launchChromium, skipWithoutChromium } from '../support/chromium';
import { signedInToPractice } from '../support/practice-browser';
import { startTestStack, type TestStack } from '../support/test-stack';

const GLOVES = 'Nitrile Exam Gloves, Powder-Free, Medium';
const PRACTICE = {
  internalOrgId: 'e2e-approvals-dental',
  organizationName: 'Approvals Dental',
  shippingLocations: [
    {
      internalShippingLocationId: 'main',
      name: 'Main clinic',
      address: { line1: '500 Congress Ave', city: 'Austin', province: 'TX', postalCode: '78701' },
      isDefault: true,
    },
  ],
};

describe.skipIf(skipWithoutChromium)('approvals in headless Chromium, a buyer and an approver side by side', () => {
  let stack: TestStack;
  let partner: { partnerId: PartnerId; apiKey: string };
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ queuePollers: false });
    partner = await stack.createPartner();
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  /** Sets the user up through the setup API, then opens the handshake's iframe URL in a browser context of its own. */
  async function signedIn(internalUserId: string, user: Record<string, unknown>): Promise<Page> {
    const page = await signedInToPractice(stack, partner, browser, { practice: PRACTICE, internalUserId, user });
    contexts.push(page.context());
    return page;
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: resolve(ARTIFACTS, `approvals-${name}-1280.png`), fullPage: true });

  /** Five boxes of gloves ($62.45 before tax) into the cart, then checkout, which offers only Submit for approval. */
  async function submitForApproval(buyer: Page, po: string): Promise<string> {
    await buyer.goto(`${stack.url}/embedded/${partner.partnerId}/products/GLV-NIT-M-100`);
    await buyer.getByRole('spinbutton', { name: `Quantity of ${GLOVES}`, exact: true }).fill('5');
    await buyer.getByRole('button', { name: `Add ${GLOVES} to cart` }).click();
    await buyer.getByRole('link', { name: 'Cart, 5 items' }).click();
    await buyer.getByRole('link', { name: 'Checkout' }).click();
    await buyer.getByRole('button', { name: 'Submit for approval' }).waitFor();
    expect(await buyer.getByRole('button', { name: 'Place order' }).count()).toBe(0);
    await buyer.getByRole('textbox', { name: /PO number/ }).fill(po);
    await buyer.getByRole('button', { name: 'Submit for approval' }).click();
    await buyer.getByRole('heading', { name: 'Submitted for approval' }).waitFor();
    return ((await buyer.getByTestId('approval-request-id').textContent()) ?? '').trim();
  }

  it('submit → approve → the order under the buyer’s Orders; a second request rejected with a reason the buyer reads', async () => {
    const buyer = await signedIn('e2e-buyer', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@approvals-dental.test',
      orderLimit: 50,
    });
    const approver = await signedIn('e2e-approver', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@approvals-dental.test',
      role: 'approver',
    });
    expect(await buyer.getByRole('link', { name: /^Approvals/ }).count()).toBe(0);
    await approver.getByRole('link', { name: 'Approvals (0 waiting)' }).waitFor();

    const first = await submitForApproval(buyer, 'PO-E2E-1');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    await shot(buyer, 'submitted');

    await approver.reload();
    await approver.getByRole('link', { name: 'Approvals (1 waiting)' }).click();
    await approver.getByRole('heading', { name: 'Waiting for a decision (1)' }).waitFor();
    const row = approver
      .getByRole('listitem')
      .filter({ has: approver.getByRole('link', { name: `Request ${first.slice(0, 8)}` }) });
    expect(await row.getByTestId('requester').textContent()).toContain('Ada Lovelace');
    expect(await row.textContent()).toContain('PO PO-E2E-1');
    expect(await row.textContent()).toContain(`${GLOVES} × 5`);
    await shot(approver, 'list');
    await approver.getByRole('link', { name: `Request ${first.slice(0, 8)}` }).click();
    await approver.getByRole('textbox', { name: 'Reason for rejecting' }).waitFor();
    await shot(approver, 'decide');
    await approver.getByRole('button', { name: 'Approve' }).click();
    await approver.getByRole('status').filter({ hasText: 'You approved this request' }).waitFor();
    await approver.getByRole('link', { name: 'Approvals (0 waiting)' }).waitFor();
    const orderLink = approver.getByRole('link', { name: /^Order [0-9a-f]{8}$/ });
    const orderName = ((await orderLink.textContent()) ?? '').trim();
    await shot(approver, 'approved');

    await buyer.getByRole('link', { name: 'Orders', exact: true }).click();
    await buyer.getByRole('link', { name: orderName }).first().waitFor();
    const approved = buyer
      .getByRole('listitem')
      .filter({ has: buyer.getByRole('link', { name: `Request ${first.slice(0, 8)}` }) });
    expect(((await approved.getByTestId('approval-status').textContent()) ?? '').trim()).toBe('Approved');
    await buyer.getByRole('link', { name: orderName }).first().click();
    await buyer.getByTestId('approved-by').waitFor();
    expect(await buyer.getByTestId('approved-by').textContent()).toContain('Grace Hopper');

    const second = await submitForApproval(buyer, 'PO-E2E-2');
    await approver.reload();
    await approver.getByRole('link', { name: 'Approvals (1 waiting)' }).click();
    await approver.getByRole('link', { name: `Request ${second.slice(0, 8)}` }).click();
    await approver.getByRole('textbox', { name: 'Reason for rejecting' }).fill('We have gloves in stock until March.');
    await approver.getByRole('button', { name: 'Reject' }).click();
    await approver.getByRole('status').filter({ hasText: 'You rejected this request' }).waitFor();

    await buyer.getByRole('link', { name: 'Orders', exact: true }).click();
    const rejected = buyer
      .getByRole('listitem')
      .filter({ has: buyer.getByRole('link', { name: `Request ${second.slice(0, 8)}` }) });
    expect(((await rejected.getByTestId('approval-status').textContent()) ?? '').trim()).toBe('Rejected');
    expect(((await rejected.getByTestId('rejection-reason').textContent()) ?? '').trim()).toBe(
      'We have gloves in stock until March.',
    );
    await shot(buyer, 'orders');
  }, 120_000);
});
