/**
 * The SDK as a partner installs it: `npm pack` builds and packs sdk/, the tarball is
 * installed into an empty directory, and a plain `.mjs` file (plain Node, no TypeScript
 * loader) calls setup and the handshake on a local stack. The root package's own export
 * is imported by plain Node too.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../support/api-document';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
/** Plain Node: nothing of the test runner's loaders or options leaks into the child. */
const plainNode = {
  ...process.env,
  NODE_OPTIONS: '',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

const CONSUMER = `
import { PartnerClient, PartnerNotFoundError } from '@partner-embed/sdk';
import { verifyWebhookSignature } from '@partner-embed/sdk/webhooks';

const client = new PartnerClient({ apiKey: process.env.PARTNER_API_KEY, baseUrl: process.env.PARTNER_BASE_URL });
const body = JSON.parse(process.env.SETUP_BODY);
const setup = await client.organizations.setup(body);
const session = await client.sessions.handshake({ internalUserId: body.internalUserId, internalOrgId: body.internalOrgId });
const missing = await client.sessions.handshake({ internalUserId: 'nobody' }).catch((error) => error);
console.log(JSON.stringify({ setup, session, notFound: missing instanceof PartnerNotFoundError, verifier: typeof verifyWebhookSignature }));
`;

/**
 * The README's links that lead nowhere once installed: every link is absolute (`https:`),
 * an anchor, or a file inside the package (the repository's docs/ is not in the tarball).
 */
async function brokenReadmeLinks(packageDir: string): Promise<string[]> {
  const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
  const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);
  const broken: string[] = [];
  for (const target of targets) {
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    const file = join(packageDir, target.split('#')[0] as string);
    if (
      !file.startsWith(packageDir) ||
      !(await stat(file).then(
        () => true,
        () => false,
      ))
    )
      broken.push(target);
  }
  return broken;
}

let stack: TestStack;
let consumerDir: string;
let packDir: string;

beforeAll(async () => {
  stack = await startTestStack();
  [consumerDir, packDir] = await Promise.all([
    mkdtemp(join(tmpdir(), 'sdk-consumer-')),
    mkdtemp(join(tmpdir(), 'sdk-pack-')),
  ]);
});
afterAll(async () => {
  await stack?.close();
  await Promise.all([consumerDir, packDir].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the packed SDK in plain Node 20', () => {
  it('installs from its tarball with no dependencies and calls setup and the handshake from a .mjs file', async () => {
    await run('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: join(root, 'sdk'), env: plainNode });
    const [tarball] = (await readdir(packDir)).filter((name) => name.endsWith('.tgz'));
    expect(tarball).toMatch(/^partner-embed-sdk-\d+\.\d+\.\d+\.tgz$/);

    await writeFile(
      join(consumerDir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--offline', '--no-package-lock', join(packDir, tarball as string)], {
      cwd: consumerDir,
      env: plainNode,
    });
    const installed = JSON.parse(
      await readFile(join(consumerDir, 'node_modules/@partner-embed/sdk/package.json'), 'utf8'),
    );
    expect(installed.dependencies ?? {}).toEqual({});
    const shipped = await readdir(join(consumerDir, 'node_modules/@partner-embed/sdk/dist'), { recursive: true });
    expect(shipped.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(await brokenReadmeLinks(join(consumerDir, 'node_modules/@partner-embed/sdk'))).toEqual([]);

    await writeFile(join(consumerDir, 'consumer.mjs'), CONSUMER);
    const { apiKey } = await stack.createPartner();
    const body = aSetupRequest().build();
    const { stdout } = await run(process.execPath, ['consumer.mjs'], {
      cwd: consumerDir,
      env: { ...plainNode, PARTNER_API_KEY: apiKey, PARTNER_BASE_URL: stack.url, SETUP_BODY: JSON.stringify(body) },
    });
    const result = JSON.parse(stdout);
    expect(schemaProblems({ $ref: '#/components/schemas/SetupResponse' }, result.setup)).toEqual([]);
    expect(schemaProblems({ $ref: '#/components/schemas/HandshakeResponse' }, result.session)).toEqual([]);
    expect(result.session.profile.id).toBe(result.setup.data.profile.id);
    expect(result).toMatchObject({ notFound: true, verifier: 'function' });
  }, 180_000);

  it("imports the root package's ./verify-webhook-signature export in plain Node (the SDK's built verifier)", async () => {
    // Runs after the test above, whose `npm pack` built sdk/dist (the root `prepare` script builds it on install).
    const script = `
      import { createHmac } from 'node:crypto';
      import { verifyWebhookSignature } from 'partner-embed-service/verify-webhook-signature';
      const body = '{"event":"order.created"}';
      const header = 'sha256=' + createHmac('sha256', 'whsec_test').update(body).digest('hex');
      console.log(verifyWebhookSignature(body, header, 'whsec_test'), verifyWebhookSignature(body, header, 'other'));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env: plainNode,
    });
    expect(stdout.trim()).toBe('true false');
  }, 60_000);
});
