/**
 * `npm run smoke` against the local stack: every step passes with a sandbox key (exit 0,
 * each step printed with its time), and a wrong key stops it at its first step with exit 1,
 * naming the step and the 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSet } from '../../lib/ops-cli/webhook-commands';
import { runSmoke, runSmokeCli } from '../../lib/smoke-test/run-smoke';
import { startTestStack, type TestStack } from '../support/test-stack';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) } };
};

describe('npm run smoke on the local stack', () => {
  it('passes every step with a sandbox key: setup, handshake and iframe, order shipped and invoiced, test webhook delivered, delivery log', async () => {
    const partner = await stack.createPartner();
    await webhookSet(stack.deps, { partner: partner.partnerId, url: receiver.url });
    const { out, err, output } = captured();

    const code = await runSmoke(
      { baseUrl: stack.url, apiKey: partner.apiKey, webhookUrl: receiver.url, pollMs: 50, waitMs: 30_000 },
      output,
    );

    expect(err).toEqual([]);
    expect(code).toBe(0);
    const steps = out.filter((line) => /^(PASS|FAIL) /.test(line));
    expect(steps.map((line) => line.split(/\s{2}/)[1])).toEqual([
      'catalog read',
      'setup',
      'handshake and iframe URL',
      'sandbox order shipped and invoiced',
      'test webhook',
      'delivery log read',
    ]);
    for (const line of steps) expect(line).toMatch(/^PASS {2}.+ {2}\d+ ms {2}/);
    expect(out.join('\n')).toMatch(/invoice inv_/);
    expect(out.at(-1)).toBe('All 6 steps passed');
    expect(receiver.requests.some((request) => request.rawBody.toString().includes('"test":true'))).toBe(true);
  }, 120_000);

  it('exits 1 with a wrong key, naming the failing step and the 401', async () => {
    const { out, err, output } = captured();

    const code = await runSmokeCli(['--base-url', stack.url, '--api-key', 'sk_test_not-a-real-key'], output);

    expect(code).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^FAIL {2}catalog read {2}\d+ ms$/));
    expect(err).toEqual([expect.stringMatching(/^Smoke test failed at "catalog read": 401 /)]);
    expect(err.join('\n')).not.toContain('sk_test_not-a-real-key');
  });

  it('exits 2 with its usage when the key is missing', async () => {
    const { err, output } = captured();
    expect(await runSmokeCli(['--base-url', stack.url], output)).toBe(2);
    expect(err.join('\n')).toContain('Usage: npm run smoke -- --base-url URL --api-key KEY [--webhook-url URL]');
  });
});
