/**
 * A practice's people in headless Chromium, as the browser tests meet them: each user set
 * up through the setup API (with `user.role`, `user.orderLimit`, `user.monthlyLimit`), then
 * the handshake's iframe URL opened in a browser context of their own, in Chicago's zone.
 */
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { TestStack } from './test-stack';

export interface Practice {
  readonly internalOrgId: string;
  readonly organizationName: string;
  readonly shippingLocations: readonly Record<string, unknown>[];
}

/** The user's module page, signed in; close it with `page.context().close()`. */
export async function signedInToPractice(
  stack: TestStack,
  partner: { partnerId: PartnerId; apiKey: string },
  browser: Browser,
  person: {
    readonly practice: Practice;
    readonly internalUserId: string;
    readonly user: Record<string, unknown>;
    readonly width?: number;
  },
): Promise<Page> {
  const bearer = { Authorization: `Bearer ${partner.apiKey}` };
  const { practice, internalUserId, user } = person;
  const setup = await stack.post('/v1/organizations/setup', { ...practice, internalUserId, user }, bearer);
  expect(setup.status, setup.text).toBe(200);
  const shake = await stack.post(
    '/v1/partner/handshake',
    { internal_user_id: internalUserId, internal_org_id: practice.internalOrgId },
    { 'X-API-Key': partner.apiKey },
  );
  const context = await browser.newContext({
    viewport: { width: person.width ?? 1280, height: 900 },
    timezoneId: 'America/Chicago',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(shake.body.iframe_embed_url);
  return page;
}
