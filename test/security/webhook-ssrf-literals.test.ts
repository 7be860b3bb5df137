/**
 * The production dispatcher never even opens a connection to a non-public address,
 * whatever spelling of it a stored URL uses. test/integration/webhook-ssrf.test.ts
 * covers http://127.0.0.1, https://127.0.0.1 and a name resolving to loopback, watching
 * an HTTP receiver; an https attempt at a plain-TCP listener would never show up there as
 * a request, so this one counts raw TCP connections, for the other literal spellings
 * (URL-normalized or not) that Node would connect to without a DNS lookup.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../functions/webhooks/webhook-endpoint';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aPartnerWithOrganization, orderCreatedData, purgeQueues } from '../support/webhook-fixtures';

let stack: TestStack;
let listener: Server;
let port = 0;
const connections: Socket[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    queuePollers: false,
    extraEnvironment: { WEBHOOK_REQUIRE_HTTPS_PUBLIC: 'true', WEBHOOK_TIMEOUT_MS: '500' },
  });
  listener = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  // All interfaces, so every loopback spelling (IPv4 and IPv6) would reach it.
  await new Promise<void>((done) => listener.listen(0, '::', done));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((done) => listener.close(() => done()));
  await stack.close();
});

async function attempt(url: string) {
  const partner = await aPartnerWithOrganization(stack);
  const now = stack.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    partnerId: partner.partnerId,
    url,
    events: ['order.created'],
    createdAt: now,
    updatedAt: now,
    secretRotatedAt: now,
    status: 'enabled',
    statusSince: now,
  };
  await stack.deps.webhookAdmin.configureEndpoint({
    partnerId: partner.partnerId,
    url: 'https://hooks.partner.example.com/orders',
  });
  await stack.deps.webhookEndpoints.put(endpoint);
  await stack.deps.orderEvents.publish({
    partnerId: partner.partnerId,
    event: 'order.created',
    data: orderCreatedData(partner.internalOrgId),
  });
  while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
  await stack.consumers.webhookDeliveries.pollOnce();
  await purgeQueues(stack);
  const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partner.partnerId);
  return delivery;
}

describe('a production dispatcher and literal non-public addresses', () => {
  it.each([
    ['IPv4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${port}/hook`],
    ['IPv6 loopback', () => `https://[::1]:${port}/hook`],
    ['IPv4-translated IPv6 loopback', () => `https://[::ffff:0:7f00:1]:${port}/hook`],
    ['loopback as one decimal number', () => `https://2130706433:${port}/hook`],
    ['loopback in hex and short form', () => `https://0x7f.1:${port}/hook`],
    ['loopback in short form', () => `https://127.1:${port}/hook`],
    ['the unspecified address', () => `https://0.0.0.0:${port}/hook`],
    ['a private address (instance metadata range)', () => `https://169.254.169.254:${port}/latest/meta-data`],
  ])('refuses %s before connecting', async (_name, url) => {
    const before = connections.length;
    const delivery = await attempt(url());
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(delivery?.attempts[0]).toMatchObject({ succeeded: false, error: expect.stringMatching(/^refused: /) });
    expect(connections.length - before).toBe(0);
  });

  it('does connect to the same listener through a sandbox (non-production) dispatcher, so the listener would have seen it', async () => {
    const sandbox = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_TIMEOUT_MS: '500' } });
    try {
      const partner = await aPartnerWithOrganization(sandbox);
      await sandbox.deps.webhookAdmin.configureEndpoint({
        partnerId: partner.partnerId,
        url: `http://127.0.0.1:${port}/hook`,
      });
      const before = connections.length;
      await sandbox.deps.orderEvents.publish({
        partnerId: partner.partnerId,
        event: 'order.created',
        data: orderCreatedData(partner.internalOrgId),
      });
      while ((await sandbox.consumers.orderEvents.pollOnce()).received > 0);
      await sandbox.consumers.webhookDeliveries.pollOnce();
      expect(connections.length - before).toBe(1);
      await purgeQueues(sandbox);
    } finally {
      await sandbox.close();
    }
  });
});
