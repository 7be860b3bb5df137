import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoPartnerRepository } from '../../functions/adapters/dynamodb/dynamodb-partner-repository';
import type { Dependencies } from '../../functions/container';
import { hashApiKey } from '../../functions/domain/partners/api-keys';
import { LOCAL_STACK_NOT_RUNNING, openOpsTarget } from '../../lib/ops-cli/ops-target';
import { COMMANDS, runOps } from '../../lib/ops-cli/run-ops';
import { isRequired } from '../../lib/ops-cli/usage-text';
import { type OpsRun, runOpsCapturing } from '../support/ops-run';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const ops = (argv: string[], deps: Dependencies | (() => Promise<Dependencies>) = stack.deps) =>
  runOpsCapturing(argv, { deps });

async function createPartner(...extra: string[]) {
  const run = await ops(['partner', 'create', '--name', `Partner ${randomUUID().slice(0, 6)}`, ...extra, '--json']);
  expect(run.code).toBe(0);
  return run.json as { partnerId: string; apiKey: string; keyId: string };
}

const setupStatus = async (apiKey: string) => (await stack.post(SETUP, {}, bearer(apiKey))).status;

/** An error an operator sees: one line, saying what, no stack trace. */
function expectOneLineError(run: OpsRun, code: number, message: string | RegExp) {
  expect(run.code).toBe(code);
  expect(run.lines).toHaveLength(1);
  expect(run.lines[0]).toMatch(/^Error: /);
  expect(run.lines[0]).toMatch(message);
  expect(run.text).not.toMatch(/\n\s+at /);
}

describe('partner create', () => {
  it('prints exactly partnerId, apiKey and keyId, and the key works on the API at once', async () => {
    const created = await createPartner();
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'keyId', 'partnerId']);
    expect(created.partnerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(created.keyId).toMatch(/^key_[0-9a-f-]{36}$/);
    expect(await setupStatus(created.apiKey)).toBe(400);
  });

  it('stores the alert email', async () => {
    const created = await createPartner('--alert-email', 'alerts@partner.example');
    const shown = await ops(['partner', 'show', '--partner', created.partnerId, '--json']);
    expect(shown.json.alertEmail).toBe('alerts@partner.example');
  });

  it('prints aligned label: value lines without --json', async () => {
    const run = await ops(['partner', 'create', '--name', 'Readable Partner']);
    expect(run.code).toBe(0);
    expect(run.lines[0]).toMatch(/^partnerId: [0-9a-f-]{36}$/);
    expect(run.lines[1]).toMatch(/^apiKey: {4}sk_test_[0-9a-f]{64}$/);
    expect(run.lines[2]).toMatch(/^keyId: {5}key_/);
  });

  it('refuses a missing name or an invalid alert email with a one-line error', async () => {
    const missingName = await ops(['partner', 'create']);
    expect(missingName.code).toBe(2);
    expect(missingName.lines[0]).toBe('Error: --name is required: give --name NAME');
    expectOneLineError(await ops(['partner', 'create', '--name', '   ']), 1, /--name must not be blank/);
    expectOneLineError(
      await ops(['partner', 'create', '--name', 'X', '--alert-email', 'nope']),
      1,
      /--alert-email must be an e-mail address, e.g. ops@example.com/,
    );
  });
});

describe('partner list', () => {
  it('lists partners as JSON without any key material', async () => {
    const created = await createPartner('--alert-email', 'list@partner.example');
    const run = await ops(['partner', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(Array.isArray(run.json)).toBe(true);
    expect(run.json).toContainEqual({
      partnerId: created.partnerId,
      name: expect.any(String),
      alertEmail: 'list@partner.example',
      allowedOrigins: [],
      createdAt: stack.clock.now().toISOString(),
    });
    expect(run.text).not.toContain(created.apiKey);
    expect(run.text).not.toContain(hashApiKey(created.apiKey));
  });

  it('prints a table without --json', async () => {
    const created = await createPartner();
    const run = await ops(['partner', 'list']);
    expect(run.code).toBe(0);
    expect(run.lines[0]).toMatch(/^PARTNER ID\s+NAME\s+ALERT EMAIL\s+ALLOWED ORIGINS\s+CREATED$/);
    expect(run.lines.some((line) => line.startsWith(created.partnerId))).toBe(true);
    expect(run.text).not.toContain(created.apiKey);
  });
});

describe('partner show', () => {
  it('shows the partner and its keys without hashes or plaintext, in JSON and in text', async () => {
    const created = await createPartner();
    const issued = (await ops(['key', 'issue', '--partner', created.partnerId, '--scopes', 'session:write', '--json']))
      .json;

    const run = await ops(['partner', 'show', '--partner', created.partnerId, '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      partnerId: created.partnerId,
      name: expect.any(String),
      alertEmail: null,
      allowedOrigins: [],
      createdAt: expect.any(String),
      keys: expect.arrayContaining([
        {
          keyId: created.keyId,
          last4: created.apiKey.slice(-4),
          scopes: [
            'organization:write',
            'session:write',
            'orders:read',
            'orders:write',
            'webhooks:read',
            'webhooks:write',
          ],
          status: 'active',
          createdAt: expect.any(String),
          revokedAt: null,
        },
        {
          keyId: issued.keyId,
          last4: issued.apiKey.slice(-4),
          scopes: ['session:write'],
          status: 'active',
          createdAt: expect.any(String),
          revokedAt: null,
        },
      ]),
    });
    expect(run.json.keys).toHaveLength(2);

    const text = (await ops(['partner', 'show', '--partner', created.partnerId])).text;
    for (const output of [run.text, text]) {
      for (const apiKey of [created.apiKey, issued.apiKey]) {
        expect(output).not.toContain(apiKey);
        expect(output).not.toContain(hashApiKey(apiKey));
      }
      expect(output).not.toMatch(/keyHash|[0-9a-f]{64}/);
    }
    expect(text).toMatch(/KEY ID\s+LAST4\s+SCOPES\s+STATUS\s+CREATED\s+REVOKED/);
    expect(text).toContain(created.keyId);
  });

  it('answers an unknown partner with a one-line error and exit 1', async () => {
    const unknown = randomUUID();
    expectOneLineError(await ops(['partner', 'show', '--partner', unknown]), 1, `No partner ${unknown}`);
  });
});

describe('partner set-origins', () => {
  it('stores the origins in canonical form and clears them with an empty value', async () => {
    const { partnerId } = await createPartner();
    const run = await ops([
      'partner',
      'set-origins',
      '--partner',
      partnerId,
      '--origins',
      'https://app.partner.example, https://Admin.Partner.example:8443/,http://localhost:5173,https://app.partner.example',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const origins = ['https://app.partner.example', 'https://admin.partner.example:8443', 'http://localhost:5173'];
    expect(run.json).toEqual({ partnerId, allowedOrigins: origins });
    expect((await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.allowedOrigins).toEqual(origins);

    expect(
      (await ops(['partner', 'set-origins', '--partner', partnerId, '--origins', '', '--json'])).json.allowedOrigins,
    ).toEqual([]);
    expect((await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.allowedOrigins).toEqual([]);
  });

  it.each([
    ['a path', 'https://app.partner.example/embed'],
    ['a query', 'https://app.partner.example?x=1'],
    ['another scheme', 'ftp://files.partner.example'],
    ['a wildcard', 'https://*.partner.example'],
    ['credentials', 'https://user:pw@app.partner.example'],
    ['no scheme', 'app.partner.example'],
  ])('refuses an origin with %s and changes nothing', async (_case, origin) => {
    const { partnerId } = await createPartner();
    const run = await ops([
      'partner',
      'set-origins',
      '--partner',
      partnerId,
      '--origins',
      `https://ok.example,${origin}`,
    ]);
    expectOneLineError(run, 1, /--origins .*not an http\(s\) origin/);
    expect((await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.allowedOrigins).toEqual([]);
  });

  it('answers an unknown partner with exit 1', async () => {
    const unknown = randomUUID();
    expectOneLineError(
      await ops(['partner', 'set-origins', '--partner', unknown, '--origins', 'https://a.example']),
      1,
      `No partner ${unknown}`,
    );
  });
});

describe('key issue', () => {
  it('issues a key with only the scopes asked for', async () => {
    const { partnerId } = await createPartner();
    const run = await ops(['key', 'issue', '--partner', partnerId, '--scopes', 'session:write', '--json']);
    expect(run.code).toBe(0);
    expect(Object.keys(run.json).sort()).toEqual(['apiKey', 'keyId']);
    expect(await setupStatus(run.json.apiKey)).toBe(403);
  });

  it('issues a key with every scope by default', async () => {
    const { partnerId } = await createPartner();
    const run = await ops(['key', 'issue', '--partner', partnerId, '--json']);
    expect(await setupStatus(run.json.apiKey)).toBe(400);
    const keys = (await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.keys;
    expect(keys.find((k: any) => k.keyId === run.json.keyId).scopes).toEqual([
      'organization:write',
      'session:write',
      'orders:read',
      'orders:write',
      'webhooks:read',
      'webhooks:write',
    ]);
  });

  it('issues a key with the webhook scopes only', async () => {
    const { partnerId } = await createPartner();
    const run = await ops([
      'key',
      'issue',
      '--partner',
      partnerId,
      '--scopes',
      'webhooks:read,webhooks:write',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const keys = (await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.keys;
    expect(keys.find((k: any) => k.keyId === run.json.keyId).scopes).toEqual(['webhooks:read', 'webhooks:write']);
    expect(await setupStatus(run.json.apiKey)).toBe(403);
  });

  it('refuses unknown or empty scopes, naming the valid ones', async () => {
    const { partnerId } = await createPartner();
    const bad = await ops(['key', 'issue', '--partner', partnerId, '--scopes', 'organization:write,admin']);
    expectOneLineError(
      bad,
      1,
      /--scopes must list scopes from organization:write, session:write, orders:read, orders:write, webhooks:read, webhooks:write \(not scopes: "admin"\)/,
    );
    expectOneLineError(
      await ops(['key', 'issue', '--partner', partnerId, '--scopes', ',']),
      1,
      /--scopes must list scopes/,
    );
    expect((await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.keys).toHaveLength(1);
  });

  it('answers an unknown partner with exit 1', async () => {
    const unknown = randomUUID();
    expectOneLineError(await ops(['key', 'issue', '--partner', unknown]), 1, `No partner ${unknown}`);
  });
});

describe('key rotate', () => {
  it('stops the old key at once, the new one works and keeps its scopes', async () => {
    const created = await createPartner();
    const run = await ops(['key', 'rotate', '--partner', created.partnerId, '--key', created.keyId, '--json']);
    expect(run.code).toBe(0);
    expect(Object.keys(run.json).sort()).toEqual(['apiKey', 'keyId']);
    expect(run.json.keyId).not.toBe(created.keyId);

    expect(await setupStatus(created.apiKey)).toBe(401);
    expect(await setupStatus(run.json.apiKey)).toBe(400);

    const keys = (await ops(['partner', 'show', '--partner', created.partnerId, '--json'])).json.keys;
    expect(keys.find((k: any) => k.keyId === created.keyId)).toMatchObject({
      status: 'revoked',
      revokedAt: expect.any(String),
    });
    expect(keys.find((k: any) => k.keyId === run.json.keyId)).toMatchObject({
      status: 'active',
      scopes: ['organization:write', 'session:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'],
    });
  });

  it('keeps exactly the scopes of a key issued before the webhook scopes existed: none is added', async () => {
    const { partnerId } = await createPartner();
    const oldScopes = 'organization:write,session:write,orders:read,orders:write';
    const old = await ops(['key', 'issue', '--partner', partnerId, '--scopes', oldScopes, '--json']);
    const run = await ops(['key', 'rotate', '--partner', partnerId, '--key', old.json.keyId, '--json']);
    expect(run.code).toBe(0);
    const keys = (await ops(['partner', 'show', '--partner', partnerId, '--json'])).json.keys;
    expect(keys.find((k: any) => k.keyId === run.json.keyId).scopes).toEqual(oldScopes.split(','));
  });

  it('answers an unknown or already revoked key, or an unknown partner, with exit 1', async () => {
    const created = await createPartner();
    const unknownKey = `key_${randomUUID()}`;
    expectOneLineError(
      await ops(['key', 'rotate', '--partner', created.partnerId, '--key', unknownKey]),
      1,
      `No active key ${unknownKey} for partner ${created.partnerId}`,
    );
    expect((await ops(['key', 'rotate', '--partner', created.partnerId, '--key', created.keyId])).code).toBe(0);
    expectOneLineError(
      await ops(['key', 'rotate', '--partner', created.partnerId, '--key', created.keyId]),
      1,
      /No active key/,
    );
    const unknownPartner = randomUUID();
    expectOneLineError(
      await ops(['key', 'rotate', '--partner', unknownPartner, '--key', created.keyId]),
      1,
      `No partner ${unknownPartner}`,
    );
  });
});

describe('key revoke', () => {
  it('stops the key at once', async () => {
    const created = await createPartner();
    expect(await setupStatus(created.apiKey)).toBe(400);
    const run = await ops(['key', 'revoke', '--partner', created.partnerId, '--key', created.keyId, '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ partnerId: created.partnerId, keyId: created.keyId, status: 'revoked' });
    expect(await setupStatus(created.apiKey)).toBe(401);
  });

  it('answers a key revoked already, an unknown key or another partner’s key with exit 1', async () => {
    const created = await createPartner();
    const other = await createPartner();
    expect((await ops(['key', 'revoke', '--partner', created.partnerId, '--key', created.keyId])).code).toBe(0);
    expectOneLineError(
      await ops(['key', 'revoke', '--partner', created.partnerId, '--key', created.keyId]),
      1,
      /No active key/,
    );
    const unknownKey = `key_${randomUUID()}`;
    expectOneLineError(
      await ops(['key', 'revoke', '--partner', created.partnerId, '--key', unknownKey]),
      1,
      `No key ${unknownKey}`,
    );
    expectOneLineError(
      await ops(['key', 'revoke', '--partner', created.partnerId, '--key', other.keyId]),
      1,
      `No key ${other.keyId}`,
    );
    expect(await setupStatus(other.apiKey)).toBe(400);
  });
});

describe('command line', () => {
  it('answers an unknown command with exit 2 and the usage', async () => {
    const run = await ops(['partner', 'delete', '--partner', randomUUID()]);
    expect(run.code).toBe(2);
    expect(run.lines[0]).toBe('Error: unknown command "partner delete"');
    expect(run.text).toContain('Usage: npm run ops -- <command>');
    expect(run.text).toContain('partner create');
  });

  it('answers --help with exit 0 and the usage, and no command or a bare group with exit 2 and the usage', async () => {
    for (const argv of [['--help'], ['-h'], ['key', '--help'], ['--json', '--help']]) {
      const run = await ops(argv);
      expect(run.code).toBe(0);
      expect(run.text).toContain('Usage: npm run ops -- <command>');
    }
    for (const argv of [[], ['partner']]) {
      const run = await ops(argv);
      expect(run.code).toBe(2);
      expect(run.text).toContain('Usage: npm run ops -- <command>');
    }
    const commandHelp = await ops(['key', 'issue', '--help']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.lines[0]).toBe(
      'Usage: npm run ops -- key issue --partner ID [--scopes SCOPE,...] [--json] [--stage STAGE]',
    );
  });

  it('npm run ops -- --help prints the usage on stdout and exits 0', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bin/ops.ts', '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run ops -- <command> \[options\]$/m);
    expect(run.stderr).toBe('');
  });

  it('says a value is missing when an option has none or is followed by another option (an unset variable)', async () => {
    for (const argv of [
      ['partner', 'show', '--partner'],
      ['partner', 'show', '--partner', '--json'],
    ]) {
      const run = await ops(argv);
      expect(run.code).toBe(2);
      expect(run.lines[0]).toBe('Error: --partner is missing its value: give --partner ID');
      expect(run.text).not.toMatch(/ambiguous/);
    }
  });

  it('says an empty or blank value must not be blank, not that it is malformed, before reaching the stack', async () => {
    let reached = false;
    const deps = async () => {
      reached = true;
      return stack.deps;
    };
    expectOneLineError(
      await ops(['partner', 'show', '--partner', ''], deps),
      1,
      /^Error: --partner must not be blank$/,
    );
    expectOneLineError(
      await ops(['partner', 'show', '--partner', '  '], deps),
      1,
      /^Error: --partner must not be blank$/,
    );
    expectOneLineError(
      await ops(['key', 'revoke', '--partner', randomUUID(), '--key', ''], deps),
      1,
      /^Error: --key must not be blank$/,
    );
    expectOneLineError(await ops(['partner', 'create', '--name', ''], deps), 1, /^Error: --name must not be blank$/);
    expect(reached).toBe(false);
  });

  it('answers a required option left out with exit 2 and the usage, before reaching the stack, on every command', async () => {
    let reached = false;
    const deps = async () => {
      reached = true;
      return stack.deps;
    };
    const samples: [string[], string][] = [
      [['partner', 'show'], 'Error: --partner is required: give --partner ID'],
      [['key', 'revoke', '--partner', randomUUID()], 'Error: --key is required: give --key KEY_ID'],
      [['session', 'list'], 'Error: --partner is required: give --partner ID'],
      [['order', 'show'], 'Error: --order is required: give --order ID'],
      [['webhook', 'show', '--json'], 'Error: --partner is required: give --partner ID'],
      [['deliveries', 'show'], 'Error: --delivery is required: give --delivery ID'],
    ];
    for (const [argv, message] of samples) {
      const run = await ops(argv, deps);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.lines[0]).toBe(message);
      expect(run.text).toContain(
        `ops -- ${argv.filter((word) => !word.startsWith('-') && !/^[0-9a-f-]{36}$/.test(word)).join(' ')}`,
      );
    }
    // Every command with a required option, not only the samples.
    const withRequired = Object.entries(COMMANDS).filter(([, command]) =>
      Object.values(command.options).some(isRequired),
    );
    expect(withRequired.length).toBeGreaterThan(15);
    for (const [name] of withRequired) expect((await ops(name.split(' '), deps)).code, name).toBe(2);
    expect(reached).toBe(false);
  });

  it('answers options that do not go together with exit 2', async () => {
    const run = await ops(['deliveries', 'replay', '--delivery', randomUUID(), '--partner', randomUUID()]);
    expect(run.code).toBe(2);
    expect(run.lines[0]).toBe('Error: give either --delivery ID, or --partner ID --since TIME [--status STATUS]');
  });

  it('answers an unknown option or a stray argument with exit 2', async () => {
    const unknownOption = await ops(['partner', 'list', '--all']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.lines[0]).toMatch(/^Error: Unknown option '--all'/);
    expect((await ops(['partner', 'list', 'extra'])).code).toBe(2);
    expect((await ops(['partner', 'create', '--name'])).code).toBe(2);
  });

  it('validates partner and key ids before reaching the stack', async () => {
    let reached = false;
    const deps = async () => {
      reached = true;
      return stack.deps;
    };
    expectOneLineError(await ops(['partner', 'show', '--partner', 'acme'], deps), 1, '--partner must be a UUID');
    expectOneLineError(
      await ops(['key', 'revoke', '--partner', randomUUID(), '--key', 'k1'], deps),
      1,
      /--key must be a key id/,
    );
    expectOneLineError(
      await ops(['partner', 'set-origins', '--partner', "x' OR 1=1", '--origins', 'https://a.example'], deps),
      1,
      /UUID/,
    );
    expect(reached).toBe(false);
  });

  it('reports a failing store in one line, without a stack trace', async () => {
    const broken = { ...stack.deps, partners: new DynamoPartnerRepository(stack.deps.aws.db, 'no-such-table') };
    const run = await ops(['partner', 'list'], broken);
    expectOneLineError(run, 1, /ResourceNotFoundException/);
  });

  it('writes errors to err when given, so stdout stays clean for --json', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOps(['partner', 'show', '--partner', randomUUID(), '--json'], {
      deps: stack.deps,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([expect.stringMatching(/^Error: No partner /)]);
  });
});

describe('the local stack target', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ops-target-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const writeStackFile = (pid: number) => {
    const file = join(dir, `stack-${pid}.json`);
    const description = {
      url: stack.url,
      resourcePrefix: stack.config.RESOURCE_PREFIX,
      stage: stack.config.STAGE,
      apiKeyPrefix: stack.config.API_KEY_PREFIX,
      endpoints: inject('standIns').endpoints,
      stripeApiBase: inject('standIns').stripeApiBase,
      queueUrls: stack.queueUrls,
      pid,
    };
    writeFileSync(file, JSON.stringify(description));
    return file;
  };

  it('acts on the stack that the stack file describes', async () => {
    const created = await createPartner();
    const target = await openOpsTarget({ stackFile: writeStackFile(process.pid), logger: stack.deps.logger });
    expect(target.deps.config).toMatchObject({
      RESOURCE_PREFIX: stack.config.RESOURCE_PREFIX,
      API_KEY_PREFIX: 'sk_test_',
    });
    const run = await ops(['partner', 'show', '--partner', created.partnerId, '--json'], target.deps);
    expect(run.json.partnerId).toBe(created.partnerId);
  });

  it('says the local stack is not running when there is no stack file, or its process is gone', async () => {
    await expect(openOpsTarget({ stackFile: join(dir, 'missing.json') })).rejects.toThrow(LOCAL_STACK_NOT_RUNNING);
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await expect(openOpsTarget({ stackFile: writeStackFile(gone) })).rejects.toThrow(LOCAL_STACK_NOT_RUNNING);

    const run = await ops(['partner', 'list'], () =>
      openOpsTarget({ stackFile: join(dir, 'missing.json') }).then((t) => t.deps),
    );
    expectOneLineError(run, 1, 'Error: Local stack not running: start it with npm start');
  });
});
