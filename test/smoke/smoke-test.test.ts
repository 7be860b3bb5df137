/**
 * `npm run smoke` run the way an operator runs it after a deploy, as its own process,
 * against `npm start` (bin/local.ts, its own process in a temporary working directory):
 * every step passes with the banner's sandbox key and the test webhook reaches the
 * partner's receiver (exit 0); a wrong key stops at the first step (exit 1, the step and
 * the 401 named, the key never echoed); a missing key prints the usage (exit 2).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOpsTarget } from '../../lib/ops-cli/ops-target';
import { runOps } from '../../lib/ops-cli/run-ops';
import { runSmokeCli } from '../../lib/smoke-test/run-smoke';
import { type LocalProcess, startLocalProcess } from '../support/local-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const workDir = mkdtempSync(join(tmpdir(), 'embed-smoke-'));
let local: LocalProcess | undefined;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  local = await startLocalProcess({ cwd: workDir });
}, 60_000);
afterAll(async () => {
  if (local) expect(await local.interrupt()).toBe(0);
  await receiver?.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** `npm run smoke -- …`: tsx running bin/smoke.ts, as package.json's script does. */
function smoke(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(resolve(REPO, 'node_modules/tsx/dist/loader.mjs')).href,
      resolve(REPO, 'bin/smoke.ts'),
      ...args,
    ],
    {
      cwd: REPO,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

describe('npm run smoke against npm start', () => {
  it('passes every step with the sandbox key, the test webhook delivered to the partner’s endpoint', async () => {
    const { url, partnerId, apiKey } = local!;
    const { deps } = await openOpsTarget({
      stackFile: join(workDir, '.local', 'stack.json'),
      logger: { info: () => undefined, error: () => undefined },
    });
    expect(
      await runOps(['webhook', 'set', '--partner', partnerId, '--url', receiver.url], { deps, out: () => undefined }),
    ).toBe(0);

    const run = await smoke(['--base-url', url, '--api-key', apiKey, '--webhook-url', receiver.url]);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const steps = run.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line));
    expect(steps).toHaveLength(6);
    for (const line of steps) expect(line).toMatch(/^PASS {2}.+ {2}\d+ ms {2}/);
    expect(run.stdout).toMatch(/sandbox order shipped and invoiced {2}\d+ ms {2}.*invoice inv_/);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('All 6 steps passed');
    expect(receiver.requests.some((request) => request.rawBody.toString().includes('"test":true'))).toBe(true);
  }, 90_000);

  it('exits 1 with a wrong key, naming the failing step and the 401', async () => {
    const run = await smoke(['--base-url', local!.url, '--api-key', 'sk_test_not-a-real-key']);

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}catalog read {2}\d+ ms$/m);
    expect(run.stderr).toMatch(/^Smoke test failed at "catalog read": 401 /);
    expect(run.stdout + run.stderr).not.toContain('sk_test_not-a-real-key');
  }, 30_000);

  it('exits 2 with its usage when the key is missing', async () => {
    const err: string[] = [];
    expect(await runSmokeCli(['--base-url', local!.url], { out: () => undefined, err: (line) => err.push(line) })).toBe(
      2,
    );
    expect(err.join('\n')).toContain('Usage: npm run smoke -- --base-url URL --api-key KEY [--webhook-url URL]');
  });
});
