import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/local-runtime/free-port';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { PAYMENT_METHOD } from '../../functions/domain/orders/order';
import { OrderCreatedData } from '../../functions/domain/events/order-events';
import { startTestStack, type TestStack } from '../support/test-stack';
import { aPartnerWithOrganization, orderCreatedData } from '../support/webhook-fixtures';

let stack: TestStack;
let receiver: ChildProcess | undefined;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
});
afterAll(async () => {
  if (receiver?.pid && receiver.exitCode === null) receiver.kill('SIGTERM');
  await stack.close();
});

/** The receiver example of docs/webhooks.md, exactly as documented. */
async function documentedReceiver(): Promise<string> {
  const doc = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const block = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/webhooks.md has no receiver.mjs example');
  return block[1] as string;
}

describe('the local walk-through in docs/webhooks.md', () => {
  it("uses a partner of its own, never the seeded one's webhook (the demo's panel listens there)", async () => {
    const doc = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const walkThrough = doc.slice(doc.indexOf('## Trying it locally'), doc.indexOf('## Operator runbook'));
    expect(walkThrough).toContain('npm run ops -- partner create --name');
    expect(walkThrough).toContain('webhook set --partner $PARTNER_ID');
    expect(walkThrough).not.toMatch(/<PARTNER_ID>|Bearer \$KEY/);
  });

  it('publishes order-event data that is a valid order.created, paid by invoice as every order is', async () => {
    const doc = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const data = /order-event --partner \S+ --event order\.created --data '(\{.*\})'/.exec(doc)?.[1];
    expect(data).toBeDefined();
    const parsed = OrderCreatedData.parse(JSON.parse(data as string));
    expect(parsed.payment_method).toBe(PAYMENT_METHOD);
  });
});

describe('the receiver example in docs/webhooks.md', () => {
  it('verifies, acknowledges and processes a real delivery, and rejects a forged one', async () => {
    const { partnerId, internalOrgId } = await aPartnerWithOrganization(stack);
    const port = await freePort();
    const { secret } = await webhookSet(stack.deps, { partner: partnerId, url: `http://127.0.0.1:${port}/webhooks` });
    const dir = await mkdtemp(join(tmpdir(), 'receiver-'));
    await writeFile(join(dir, 'receiver.mjs'), await documentedReceiver());

    const child = spawn(process.execPath, [join(dir, 'receiver.mjs')], {
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const waitFor = async (text: string) => {
      for (let i = 0; i < 100 && !output.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
      expect(output).toContain(text);
    };
    await waitFor('webhook receiver on');

    const data = orderCreatedData(internalOrgId);
    await stack.deps.orderEvents.publish({ partnerId, event: 'order.created', data });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    await stack.consumers.webhookDeliveries.pollOnce();

    const [delivery] = await stack.deps.webhookAdmin.listDeliveries(partnerId);
    expect(delivery).toMatchObject({ status: 'delivered' });
    expect(delivery?.attempts[0]?.statusCode).toBe(204);
    await waitFor(`[${delivery?.deliveryId}] order.created: order ${data.order_id} is pending`);

    const forged = await fetch(`http://127.0.0.1:${port}/webhooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Service-Signature': `sha256=${'0'.repeat(64)}` },
      body: delivery?.body,
    });
    expect(forged.status).toBe(401);
  });
});
