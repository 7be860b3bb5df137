/**
 * Debian's Chromium for the browser tests, started as this machine allows (no sandbox as
 * root; no background networking, which the closed network refuses), and the demo partner
 * app on a test stack, as the browser tests that go through `/demo` use it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { createDemoApp, type DemoConnection } from '../../lib/local-runtime/demo-app';
import { DemoWebhookReceiver, wireDemoWebhooks } from '../../lib/local-runtime/demo-webhook-receiver';
import { provisionProfile } from './provisioned-profile';
import { startTestStack, type TestStack } from './test-stack';

const CHROMIUM = '/usr/bin/chromium';
/** Skipped without Chromium, except on CI (`.ci/run` installs it, and a missing browser must fail there). */
export const skipWithoutChromium = !existsSync(CHROMIUM) && !process.env.CI;
/** Where the browser tests save their screenshots. */
export const ARTIFACTS = resolve('test/artifacts');

export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface DemoStack {
  readonly stack: TestStack;
  readonly partner: { partnerId: PartnerId; apiKey: string };
  readonly receiver: DemoWebhookReceiver;
}

/** A test stack serving `/demo` for a new partner: its users are provisioned on first pick, its webhooks go to the demo's receiver. */
export async function startDemoStack(): Promise<DemoStack> {
  const receiver = new DemoWebhookReceiver();
  let connect: (connection: DemoConnection) => void = () => undefined;
  const connection = new Promise<DemoConnection>((done) => {
    connect = done;
  });
  // The demo needs the stack and partner it is served with: filled in once they exist, before any page is asked for.
  const served: { stack?: TestStack; partnerId?: PartnerId } = {};
  const demo = createDemoApp({
    connection: () => connection,
    provision: async (user) => {
      await provisionProfile(served.stack!.deps, served.partnerId!, user.setup);
    },
    webhooks: {
      receiver,
      wire: (url) => wireDemoWebhooks(served.stack!.deps.webhookAdmin, served.partnerId!, url, receiver.secret),
    },
  });
  const stack = await startTestStack({ pages: [demo] });
  const partner = await stack.createPartner();
  Object.assign(served, { stack, partnerId: partner.partnerId });
  connect({ apiUrl: stack.url, apiKey: partner.apiKey });
  return { stack, partner, receiver };
}
