/**
 * The operator CLI's organization, session, webhook, order-event, delivery and outbox
 * commands, run as an operator runs them (`runOps` with a command line) against a test
 * stack: JSON and text output, their real effects on the service, and one-line failures.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '../../functions/container';
import type { PartnerId } from '../../functions/domain/partners/partner';
import type { Stage } from '../../functions/resources/stages';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { COMMANDS } from '../../lib/ops-cli/run-ops';
import { webhookSecretName } from '../../functions/resources/resource-definitions';
import { type OpsRun, runOpsCapturing } from '../support/ops-run';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { recordSqsDelays, type SentMessage } from '../support/sqs-delays';
import { startTestStack, type TestStack } from '../support/test-stack';
import { receiverPool } from '../support/webhook-receiver';
import { orderCreatedData, purgeQueues, processQueues as processQueuesOf } from '../support/webhook-fixtures';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';
const COOKIE = '__Host-embed_session';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let stack: TestStack;
let sent: SentMessage[];
const receivers = receiverPool();
let dir: string;

// Consumers are stepped by hand; a one-retry ladder keeps the failure case short.
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false, extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: '60' } });
  sent = recordSqsDelays(stack.deps.aws.sqs);
  dir = mkdtempSync(join(tmpdir(), 'ops-operations-'));
});
afterEach(async () => {
  await purgeQueues(stack);
  await receivers.closeAll();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.close();
});

const ops = (argv: string[], options: { deps?: Dependencies | (() => Promise<Dependencies>); stage?: Stage } = {}) =>
  runOpsCapturing(argv, { deps: options.deps ?? stack.deps, stage: options.stage });

/** An error an operator sees: one line, saying what, no stack trace. */
function expectOneLineError(run: OpsRun, code: number, message: string | RegExp) {
  expect(run.code).toBe(code);
  expect(run.lines).toHaveLength(1);
  expect(run.lines[0]).toMatch(/^Error: /);
  expect(run.lines[0]).toMatch(message);
  expect(run.text).not.toMatch(/\n\s+at /);
}

/** A usage error: exit 2, the error first, then the command's usage. */
function expectUsageError(run: OpsRun, message: string | RegExp) {
  expect(run.code).toBe(2);
  expect(run.lines[0]).toMatch(message);
  expect(run.text).toMatch(/Usage|usage/);
}

/** Deps that fail the test if reached: the command line must be refused before the stack. */
const unreachable = () => {
  let reached = false;
  return {
    deps: async () => {
      reached = true;
      return stack.deps;
    },
    reached: () => reached,
  };
};

async function aPartner() {
  const alertEmail = `alerts-${randomUUID().slice(0, 8)}@partner.test`;
  const run = await ops(['partner', 'create', '--name', 'Ops Partner', '--alert-email', alertEmail, '--json']);
  expect(run.code).toBe(0);
  return { ...(run.json as { partnerId: string; apiKey: string; keyId: string }), alertEmail };
}

/** Provisions a user through the real setup endpoint; returns the response's data. */
async function setUp(apiKey: string, internalOrgId: string, internalUserId = 'u-1') {
  const res = await stack.post(
    SETUP,
    aSetupRequest()
      .forOrg(internalOrgId)
      .forUser(internalUserId)
      .with({ organizationEmail: 'ap@acme.test' })
      .withLocations(aLocation('dock', { isDefault: true, deliveryInstructions: 'Ring twice' }))
      .build(),
    { Authorization: `Bearer ${apiKey}` },
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

const handshake = (apiKey: string, body: Record<string, string>) =>
  stack.post(HANDSHAKE, body, { 'X-API-Key': apiKey });

/** Opens the iframe URL as a browser would; returns the session cookie's value. */
async function redeem(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return /^__Host-embed_session=([0-9a-f]{64});/.exec(res.headers.getSetCookie()[0] ?? '')?.[1] as string;
}

const showModule = (partnerId: string, cookie: string) =>
  fetch(`${stack.url}/embedded/${partnerId}`, { headers: { Cookie: `${COOKIE}=${cookie}` }, redirect: 'manual' }).then(
    (r) => r.status,
  );

const receiver = receivers.start;

const processQueues = () => processQueuesOf(stack, sent);

/** The current secret in Secrets Manager's stored value (`{"current": …, "retiring": […]}`). */
const storedSecret = async (partnerId: string) =>
  JSON.parse(
    (
      await stack.deps.aws.secrets.send(
        new GetSecretValueCommand({ SecretId: webhookSecretName(stack.config.RESOURCE_PREFIX, partnerId) }),
      )
    ).SecretString as string,
  ).current;

/** Every key of a JSON document, at any depth. */
const jsonKeys = (value: unknown): Set<string> => {
  const keys = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        keys.add(key.toLowerCase());
        visit(child);
      }
    }
  };
  visit(value);
  return keys;
};

/** The `label:` words of readable output, at any indentation. */
const textLabels = (text: string) =>
  new Set([...text.matchAll(/^\s*([A-Za-z][A-Za-z0-9]*):/gm)].map((match) => match[1]!.toLowerCase()));

const missingFromText = (json: unknown, text: string, wrappers: readonly string[] = []) => {
  const labels = textLabels(text);
  return [...jsonKeys(json)].filter((key) => !labels.has(key) && !wrappers.includes(key));
};

describe('organization list / show', () => {
  it("lists the partner's organizations as JSON and as a table; show has profiles, users and locations", async () => {
    const partner = await aPartner();
    const alpha = await setUp(partner.apiKey, 'alpha');
    await setUp(partner.apiKey, 'beta');
    await setUp((await aPartner()).apiKey, 'gamma');

    const list = await ops(['organization', 'list', '--partner', partner.partnerId, '--json']);
    expect(list.code).toBe(0);
    expect(list.json.partnerId).toBe(partner.partnerId);
    expect(list.json.organizations.map((o: any) => o.internalOrgId)).toEqual(['alpha', 'beta']);
    expect(list.json.organizations[0]).toEqual({
      id: alpha.organization.id,
      internalOrgId: 'alpha',
      name: 'Acme Dental',
      paymentCustomerId: alpha.organization.paymentCustomerId,
      createdAt: expect.any(String),
    });
    const table = await ops(['organization', 'list', '--partner', partner.partnerId]);
    expect(table.lines[0]).toMatch(/^INTERNAL ORG ID\s+ORGANIZATION ID\s+NAME\s+PAYMENT CUSTOMER\s+CREATED$/);
    expect(table.lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['alpha', 'beta']);

    const show = await ops(['organization', 'show', '--partner', partner.partnerId, '--org', 'alpha', '--json']);
    expect(show.code).toBe(0);
    expect(show.json.organization).toMatchObject({
      id: alpha.organization.id,
      internalOrgId: 'alpha',
      email: 'ap@acme.test',
    });
    expect(show.json.profiles).toEqual([
      expect.objectContaining({
        id: alpha.profile.id,
        internalUserId: 'u-1',
        user: { id: alpha.profile.user, status: 'active' },
      }),
    ]);
    expect(show.json.locations).toEqual([
      expect.objectContaining({
        internalShippingLocationId: 'dock',
        isDefault: true,
        deliveryInstructions: 'Ring twice',
      }),
    ]);
    const text = (await ops(['organization', 'show', '--partner', partner.partnerId, '--org', 'alpha'])).text;
    expect(text).toMatch(/^id: +[0-9a-f-]{36}$/m);
    expect(text).toContain(`${alpha.profile.user} (active)`);
    expect(text).toMatch(/^dock|\sdock\s/m);
  });

  it('organization show: the readable output has every field --json has', async () => {
    const partner = await aPartner();
    const body = aSetupRequest()
      .forOrg('full')
      .forUser('u-full', { phoneNumber: '+1 512 555 0100' })
      .with({
        organizationEmail: 'ap@acme.test',
        organizationPhone: '512-555-0199',
        billingAddress: { line1: '1 Billing Way', city: 'Austin', province: 'tx', postalCode: '78701' },
      })
      .withLocations(
        aLocation('dock', {
          isDefault: true,
          nickname: 'Back door',
          contact: { name: 'Front desk', phone: '512-555-0101', email: 'desk@acme.test' },
          deliveryInstructions: 'Ring twice',
          address: { line1: '1 Main St', line2: 'Suite 100', city: 'Austin', province: 'tx', postalCode: '78701' },
        }),
      )
      .build();
    expect((await stack.post(SETUP, body, { Authorization: `Bearer ${partner.apiKey}` })).status).toBe(200);
    const json = (await ops(['organization', 'show', '--partner', partner.partnerId, '--org', 'full', '--json'])).json;
    const text = (await ops(['organization', 'show', '--partner', partner.partnerId, '--org', 'full'])).text;
    for (const key of ['phonenumber', 'nickname', 'contact', 'deliveryinstructions', 'line2', 'country', 'status'])
      expect([...jsonKeys(json)]).toContain(key);
    // The organization's own fields are the top lines; `organization` only wraps them.
    expect(missingFromText(json, text, ['organization'])).toEqual([]);
    expect(text).toContain('512-555-0101');
    expect(text).toContain('desk@acme.test');
    expect(text).toContain('+1 512 555 0100');
  });

  it('says so for a partner without organizations, and fails in one line for an unknown partner or organization', async () => {
    const partner = await aPartner();
    expect((await ops(['organization', 'list', '--partner', partner.partnerId])).lines).toEqual([
      `Partner ${partner.partnerId} has no organizations.`,
    ]);
    const unknown = randomUUID();
    expectOneLineError(await ops(['organization', 'list', '--partner', unknown]), 1, `No partner ${unknown}`);
    expectOneLineError(
      await ops(['organization', 'show', '--partner', partner.partnerId, '--org', 'missing']),
      1,
      `Partner ${partner.partnerId} has no organization missing`,
    );
    const early = unreachable();
    expectUsageError(
      await ops(['organization', 'show', '--partner', partner.partnerId], early),
      'Error: --org is required: give --org INTERNAL_ORG_ID',
    );
    expectOneLineError(
      await ops(['organization', 'show', '--partner', partner.partnerId, '--org', '  '], early),
      1,
      '--org must not be blank',
    );
    expect(early.reached()).toBe(false);
  });
});

describe('profile disable', () => {
  it('makes the handshake answer 400 "Profile not set up for authentication"; a second run changes nothing', async () => {
    const partner = await aPartner();
    const data = await setUp(partner.apiKey, 'disable-me');
    expect((await handshake(partner.apiKey, { internal_user_id: 'u-1' })).status).toBe(200);

    const run = await ops([
      'profile',
      'disable',
      '--partner',
      partner.partnerId,
      '--profile',
      data.profile.id,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      profileId: data.profile.id,
      partnerId: partner.partnerId,
      internalOrgId: 'disable-me',
      internalUserId: 'u-1',
      disabledUserId: data.profile.user,
      alreadyDisabled: false,
    });

    for (const body of [{ internal_user_id: 'u-1' }, { profile_id: data.profile.id as string }] as Record<
      string,
      string
    >[]) {
      const res = await handshake(partner.apiKey, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Profile not set up for authentication');
    }

    // Ids as an operator may paste them, in upper case: the same partner and profile.
    const again = await ops([
      'profile',
      'disable',
      '--partner',
      partner.partnerId.toUpperCase(),
      '--profile',
      data.profile.id.toUpperCase(),
    ]);
    expect(again.code).toBe(0);
    expect(again.text).toContain('already disabled: nothing changed');
  });

  it('profile enable links the profile again: handshakes work, sessions ended by disable stay ended, a second run changes nothing', async () => {
    const partner = await aPartner();
    const data = await setUp(partner.apiKey, 'enable-me');
    const before = await handshake(partner.apiKey, { internal_user_id: 'u-1' });
    const cookie = await redeem(before.body.iframe_embed_url);
    expect(await showModule(partner.partnerId, cookie)).toBe(200);
    expect((await ops(['profile', 'disable', '--partner', partner.partnerId, '--profile', data.profile.id])).code).toBe(
      0,
    );
    expect((await handshake(partner.apiKey, { internal_user_id: 'u-1' })).status).toBe(400);

    const run = await ops([
      'profile',
      'enable',
      '--partner',
      partner.partnerId,
      '--profile',
      data.profile.id,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      profileId: data.profile.id,
      partnerId: partner.partnerId,
      internalOrgId: 'enable-me',
      internalUserId: 'u-1',
      enabledUserId: data.profile.user,
      alreadyEnabled: false,
    });
    for (const body of [{ internal_user_id: 'u-1' }, { profile_id: data.profile.id as string }] as Record<
      string,
      string
    >[]) {
      const res = await handshake(partner.apiKey, body);
      expect(res.status).toBe(200);
      expect(await showModule(partner.partnerId, await redeem(res.body.iframe_embed_url))).toBe(200);
    }
    expect(await showModule(partner.partnerId, cookie)).toBe(401);
    const shown = await ops(['organization', 'show', '--partner', partner.partnerId, '--org', 'enable-me', '--json']);
    expect(shown.json.profiles[0].user).toEqual({ id: data.profile.user, status: 'active' });

    const again = await ops(['profile', 'enable', '--partner', partner.partnerId, '--profile', data.profile.id]);
    expect(again.code).toBe(0);
    expect(again.text).toContain('already enabled: nothing changed');
    const againJson = await ops([
      'profile',
      'enable',
      '--partner',
      partner.partnerId,
      '--profile',
      data.profile.id,
      '--json',
    ]);
    expect(againJson.json).toMatchObject({ enabledUserId: data.profile.user, alreadyEnabled: true });

    // Disable and enable again: the same user each time.
    expect((await ops(['profile', 'disable', '--partner', partner.partnerId, '--profile', data.profile.id])).code).toBe(
      0,
    );
    expect(
      (await ops(['profile', 'enable', '--partner', partner.partnerId, '--profile', data.profile.id, '--json'])).json
        .enabledUserId,
    ).toBe(data.profile.user);
    expect((await handshake(partner.apiKey, { internal_user_id: 'u-1' })).status).toBe(200);
  });

  it("profile enable refuses another partner's profile and an unknown one, and validates the ids before the stack", async () => {
    const owner = await aPartner();
    const stranger = await aPartner();
    const data = await setUp(owner.apiKey, 'enable-owned');
    expect((await ops(['profile', 'disable', '--partner', owner.partnerId, '--profile', data.profile.id])).code).toBe(
      0,
    );
    expectOneLineError(
      await ops(['profile', 'enable', '--partner', stranger.partnerId, '--profile', data.profile.id]),
      1,
      `Profile ${data.profile.id} belongs to another partner`,
    );
    expect((await handshake(owner.apiKey, { profile_id: data.profile.id })).status).toBe(400);
    const unknown = randomUUID();
    expectOneLineError(
      await ops(['profile', 'enable', '--partner', owner.partnerId, '--profile', unknown]),
      1,
      `No profile ${unknown}`,
    );
    const early = unreachable();
    expectOneLineError(
      await ops(['profile', 'enable', '--partner', owner.partnerId, '--profile', 'u-1'], early),
      1,
      '--profile must be a UUID',
    );
    expect(early.reached()).toBe(false);
  });

  it("refuses another partner's profile and leaves it working; validates the ids before the stack", async () => {
    const owner = await aPartner();
    const stranger = await aPartner();
    const data = await setUp(owner.apiKey, 'owned');

    expectOneLineError(
      await ops(['profile', 'disable', '--partner', stranger.partnerId, '--profile', data.profile.id]),
      1,
      `Profile ${data.profile.id} belongs to another partner`,
    );
    expect((await handshake(owner.apiKey, { profile_id: data.profile.id })).status).toBe(200);
    const unknown = randomUUID();
    expectOneLineError(
      await ops(['profile', 'disable', '--partner', owner.partnerId, '--profile', unknown]),
      1,
      `No profile ${unknown}`,
    );

    const early = unreachable();
    expectOneLineError(
      await ops(['profile', 'disable', '--partner', owner.partnerId, '--profile', 'u-1'], early),
      1,
      '--profile must be a UUID',
    );
    expect(early.reached()).toBe(false);
  });
});

describe('session list / revoke', () => {
  it('lists handshakes newest first as issued, used or expired, never a token; honours --limit', async () => {
    const partner = await aPartner();
    await setUp(partner.apiKey, 'sessions');
    const first = (await handshake(partner.apiKey, { internal_user_id: 'u-1' })).body;
    stack.clock.advance(6 * 60_000);
    const second = (await handshake(partner.apiKey, { internal_user_id: 'u-1' })).body;
    await redeem(second.iframe_embed_url);
    stack.clock.advance(1_000);
    const third = (await handshake(partner.apiKey, { internal_user_id: 'u-1' })).body;

    const run = await ops(['session', 'list', '--partner', partner.partnerId, '--json']);
    expect(run.code).toBe(0);
    expect(run.json.partnerId).toBe(partner.partnerId);
    expect(run.json.sessions.map((s: any) => [s.state, s.expiresAt])).toEqual([
      ['issued', third.expires_at],
      ['used', second.expires_at],
      ['expired', first.expires_at],
    ]);
    const text = await ops(['session', 'list', '--partner', partner.partnerId]);
    expect(text.lines[0]).toMatch(/^SESSION ID\s+PROFILE ID\s+ORGANIZATION\s+STATE\s+CREATED\s+EXPIRES\s+USED$/);
    expect(text.lines).toHaveLength(4);
    for (const output of [run.text, text.text]) {
      for (const key of [first, second, third].map((h) => h.session_key as string)) {
        expect(output).not.toContain(key);
        expect(output).not.toContain(sha256(key));
      }
    }

    expect(
      (await ops(['session', 'list', '--partner', partner.partnerId, '--limit', '2', '--json'])).json.sessions,
    ).toHaveLength(2);
    const early = unreachable();
    expectOneLineError(
      await ops(['session', 'list', '--partner', partner.partnerId, '--limit', '0'], early),
      1,
      '--limit must be a whole number from 1 to 500, e.g. 20',
    );
    expectOneLineError(
      await ops(['session', 'list', '--partner', partner.partnerId, '--limit', '501'], early),
      1,
      '--limit must be a whole number from 1 to 500, e.g. 20',
    );
    expectOneLineError(
      await ops(['session', 'list', '--partner', partner.partnerId, '--limit', 'ten'], early),
      1,
      '--limit must be a whole number from 1 to 500, e.g. 20',
    );
    expect(early.reached()).toBe(false);
    const unknown = randomUUID();
    expectOneLineError(await ops(['session', 'list', '--partner', unknown]), 1, `No partner ${unknown}`);
  });

  it("ends the user's live sessions (their cookies get the 401 page), leaves colleagues alone, and says so in text", async () => {
    const partner = await aPartner();
    const ada = await setUp(partner.apiKey, 'revoke', 'u-1');
    await setUp(partner.apiKey, 'revoke', 'u-2');
    const laptop = await redeem((await handshake(partner.apiKey, { internal_user_id: 'u-1' })).body.iframe_embed_url);
    const tablet = await redeem((await handshake(partner.apiKey, { internal_user_id: 'u-1' })).body.iframe_embed_url);
    const colleague = await redeem(
      (await handshake(partner.apiKey, { internal_user_id: 'u-2' })).body.iframe_embed_url,
    );
    expect(await showModule(partner.partnerId, laptop)).toBe(200);

    const run = await ops(['session', 'revoke', '--partner', partner.partnerId, '--profile', ada.profile.id, '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      partnerId: partner.partnerId,
      profileId: ada.profile.id,
      revoked: [
        { id: expect.any(String), createdAt: expect.any(String), lastSeenAt: expect.any(String) },
        { id: expect.any(String), createdAt: expect.any(String), lastSeenAt: expect.any(String) },
      ],
    });
    expect(run.text).not.toMatch(/[0-9a-f]{64}/);
    expect(await showModule(partner.partnerId, laptop)).toBe(401);
    expect(await showModule(partner.partnerId, tablet)).toBe(401);
    expect(await showModule(partner.partnerId, colleague)).toBe(200);

    const again = await ops(['session', 'revoke', '--partner', partner.partnerId, '--profile', ada.profile.id]);
    expect(again.code).toBe(0);
    expect(again.lines[2]).toMatch(/^revoked: +0$/);
  });

  it("refuses another partner's profile in one line", async () => {
    const partner = await aPartner();
    const other = await aPartner();
    const theirs = await setUp(other.apiKey, 'theirs');
    expectOneLineError(
      await ops(['session', 'revoke', '--partner', partner.partnerId, '--profile', theirs.profile.id]),
      1,
      `Profile ${theirs.profile.id} belongs to another partner`,
    );
  });
});

describe('webhook set / show / rotate-secret', () => {
  it('prints a generated secret once, which is stored; show never prints it, in JSON or text; a new URL keeps it', async () => {
    const partner = await aPartner();
    const set = await ops([
      'webhook',
      'set',
      '--partner',
      partner.partnerId,
      '--url',
      'http://127.0.0.1:9/hooks',
      '--events',
      'order.shipped, order.created',
      '--json',
    ]);
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({
      partnerId: partner.partnerId,
      url: 'http://127.0.0.1:9/hooks',
      events: ['order.created', 'order.shipped'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      note: expect.stringContaining('not shown again'),
    });
    const secret = set.json.secret as string;
    expect(await storedSecret(partner.partnerId)).toBe(secret);

    const shown = await ops(['webhook', 'show', '--partner', partner.partnerId, '--json']);
    expect(shown.code).toBe(0);
    expect(shown.json).toEqual({
      partnerId: partner.partnerId,
      url: 'http://127.0.0.1:9/hooks',
      events: ['order.created', 'order.shipped'],
      status: 'enabled',
      since: expect.any(String),
      // A new endpoint starts at two attempts in flight, up to the adaptive ceiling.
      circuit: { state: 'closed', consecutiveFailures: 0, concurrency: 2, maxConcurrency: 32, slowAfterMs: 1000 },
      // A new endpoint's attempts start on the fast path.
      dispatch: { path: 'fast', reason: 'its attempts answer within the fast path budget' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secretRotatedAt: expect.any(String),
    });
    const shownText = await ops(['webhook', 'show', '--partner', partner.partnerId]);
    expect(shownText.text).toMatch(/^url: +http:\/\/127\.0\.0\.1:9\/hooks$/m);
    expect(shownText.text).toMatch(/^concurrency: +2 of 32$/m);
    expect(shownText.text).toMatch(/^slowAfterMs: +1000$/m);
    for (const output of [shown.text, shownText.text]) expect(output).not.toContain(secret);

    const changed = await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', 'http://127.0.0.1:10/hooks']);
    expect(changed.code).toBe(0);
    expect(changed.text).not.toMatch(/whsec_/);
    expect(changed.text).toContain('The existing signing secret is kept.');
    expect(changed.text).toMatch(
      /^events: +order\.created, order\.confirmed, order\.shipped, order\.delivered, order\.cancelled, order\.refunded$/m,
    );
    expect(await storedSecret(partner.partnerId)).toBe(secret);
  });

  it("stores the partner's preferred secret without printing it", async () => {
    const partner = await aPartner();
    const preferred = 'partner-chosen-secret-0123456789';
    const run = await ops([
      'webhook',
      'set',
      '--partner',
      partner.partnerId,
      '--url',
      'http://127.0.0.1:9/',
      '--secret',
      preferred,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.json).not.toHaveProperty('secret');
    expect(run.text).not.toContain(preferred);
    expect(await storedSecret(partner.partnerId)).toBe(preferred);
  });

  it('refuses bad events and secrets before the stack, a bad URL in one line, and show without an endpoint', async () => {
    const partner = await aPartner();
    const early = unreachable();
    const bad = await ops(
      [
        'webhook',
        'set',
        '--partner',
        partner.partnerId,
        '--url',
        'http://127.0.0.1:9/',
        '--events',
        'order.created,order.lost',
        '--secret',
        'short',
      ],
      early,
    );
    expectOneLineError(
      bad,
      1,
      /--events must list event kinds from order\.created, .* \(not event kinds: "order\.lost"\); --secret must be at least 24 characters/,
    );
    expect(bad.text).not.toContain('short"');
    expectUsageError(
      await ops(['webhook', 'set', '--partner', partner.partnerId], early),
      'Error: --url is required: give --url URL',
    );
    expectOneLineError(
      await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', 'http://x/', '--events', ''], early),
      1,
      /--events must list/,
    );
    expect(early.reached()).toBe(false);

    expectOneLineError(
      await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', 'ftp://x/']),
      1,
      /^Error: url /,
    );
    expectOneLineError(
      await ops(['webhook', 'show', '--partner', partner.partnerId]),
      1,
      `Partner ${partner.partnerId} has no webhook endpoint`,
    );
    expectOneLineError(
      await ops(['webhook', 'rotate-secret', '--partner', partner.partnerId]),
      1,
      /has no webhook endpoint/,
    );
    const unknown = randomUUID();
    expectOneLineError(
      await ops(['webhook', 'set', '--partner', unknown, '--url', 'http://127.0.0.1:9/']),
      1,
      `No partner ${unknown}`,
    );
  });

  it("show prints the dispatcher's circuit: open after five failures in a row, with the count, since when and when it probes, in JSON and text", async () => {
    const partnerReceiver = await receiver(() => 500);
    const partner = await aPartner();
    await setUp(partner.apiKey, 'dead-end');
    await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', partnerReceiver.url]);
    // Three deliveries of two attempts each (this file's one-retry ladder): the fifth failure opens the circuit, the sixth is its failed probe.
    for (let i = 0; i < 3; i += 1)
      await ops([
        'order-event',
        '--partner',
        partner.partnerId,
        '--event',
        'order.created',
        '--data',
        JSON.stringify(orderCreatedData('dead-end')),
      ]);
    await processQueues();

    const stored = (await stack.deps.webhookEndpoints.get(partner.partnerId as PartnerId))?.circuit;
    expect(stored).toMatchObject({ state: 'open', consecutiveFailures: partnerReceiver.requests.length });
    expect(stored!.consecutiveFailures).toBeGreaterThanOrEqual(5);
    const shown = await ops(['webhook', 'show', '--partner', partner.partnerId, '--json']);
    expect(shown.json.circuit).toEqual({
      state: 'open',
      consecutiveFailures: stored!.consecutiveFailures,
      openedAt: stored!.openedAt,
      retryAt: stored!.retryAt,
      // Failing: one attempt at a time.
      concurrency: 1,
      maxConcurrency: 32,
      // No 2xx ever: no latency baseline, slow past the policy's second.
      slowAfterMs: 1000,
    });

    const text = (await ops(['webhook', 'show', '--partner', partner.partnerId])).text;
    expect(text).toMatch(/^circuit: +open$/m);
    expect(text).toMatch(new RegExp(`^consecutiveFailures: +${stored!.consecutiveFailures}$`, 'm'));
    expect(text).toMatch(new RegExp(`^circuitOpenedAt: +${stored!.openedAt}$`, 'm'));
    expect(text).toMatch(new RegExp(`^retryAt: +${stored!.retryAt}$`, 'm'));
  });

  it('says one true thing about when a new secret takes over: running dispatchers sign with it from their next batch', async () => {
    const partner = await aPartner();
    await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', 'http://127.0.0.1:9/hooks']);
    const cacheStatement =
      'running dispatchers sign with it from their next batch (an attempt already in flight keeps the old one)';
    const rotatedJson = await ops(['webhook', 'rotate-secret', '--partner', partner.partnerId, '--json']);
    const rotatedText = await ops(['webhook', 'rotate-secret', '--partner', partner.partnerId]);
    const chosen = await ops([
      'webhook',
      'set',
      '--partner',
      partner.partnerId,
      '--url',
      'http://127.0.0.1:9/hooks',
      '--secret',
      `whsec_${'c'.repeat(30)}`,
      '--json',
    ]);
    for (const note of [rotatedJson.json.note, rotatedText.text, chosen.json.note]) {
      expect(note).toContain(cacheStatement);
      expect(note).not.toMatch(/at once|within a minute/);
    }
    const summary =
      'A new signing secret, printed once, used by every dispatcher from its next batch; the old one keeps signing beside it for the overlap';
    expect((await ops(['webhook', 'rotate-secret', '--help'])).lines).toContain(summary);
    expect((await ops(['--help'])).text).toMatch(
      new RegExp(`^  webhook rotate-secret +${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
    );
  });

  it('rotate-secret --overlap 0s prints the new secret once; deliveries are signed with it, not the old one', async () => {
    const partnerReceiver = await receiver();
    const partner = await aPartner();
    await setUp(partner.apiKey, 'rotate');
    const first = (
      await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', partnerReceiver.url, '--json'])
    ).json.secret;
    const rotated = await ops([
      'webhook',
      'rotate-secret',
      '--partner',
      partner.partnerId,
      '--overlap',
      '0s',
      '--json',
    ]);
    expect(rotated.code).toBe(0);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(first);
    expect(await storedSecret(partner.partnerId)).toBe(rotated.json.secret);
    expect((await ops(['webhook', 'show', '--partner', partner.partnerId])).text).not.toContain(rotated.json.secret);

    const data = JSON.stringify(orderCreatedData('rotate'));
    const fresh = await ops([
      'order-event',
      '--partner',
      partner.partnerId,
      '--event',
      'order.created',
      '--data',
      data,
    ]);
    expect(fresh.code).toBe(0);
    expect(fresh.lines.at(-1)).toBe(
      `Published: a delivery follows if the partner's webhook takes order.created: npm run ops -- deliveries list --partner ${partner.partnerId}`,
    );
    await processQueues();
    const [request] = partnerReceiver.requests;
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], rotated.json.secret)).toBe(
      true,
    );
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], first)).toBe(false);
  });
});

describe('order-event and deliveries', () => {
  it('publishes an event whose delivery arrives signed and shows in deliveries list and show; an event id publishes once', async () => {
    const partnerReceiver = await receiver();
    const partner = await aPartner();
    await setUp(partner.apiKey, 'acme-1');
    const secret = (
      await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', partnerReceiver.url, '--json'])
    ).json.secret;
    const data = orderCreatedData('acme-1');
    const file = join(dir, 'created.json');
    writeFileSync(file, JSON.stringify(data));

    const published = await ops([
      'order-event',
      '--partner',
      partner.partnerId,
      '--event',
      'order.created',
      '--data',
      `@${file}`,
      '--event-id',
      'evt-1',
      '--json',
    ]);
    expect(published.code).toBe(0);
    expect(published.json).toEqual({
      eventId: 'evt-1',
      event: 'order.created',
      partnerId: partner.partnerId,
      organizationId: expect.any(String),
      timestamp: stack.clock.now().toISOString(),
      data,
    });
    await processQueues();

    expect(partnerReceiver.requests).toHaveLength(1);
    const [request] = partnerReceiver.requests;
    expect(JSON.parse(request!.rawBody.toString())).toEqual({
      event: 'order.created',
      timestamp: published.json.timestamp,
      // The fan-out adds the order's invoice as it is when the webhook leaves: none yet.
      data: { ...data, invoice: null },
    });
    expect(verifyWebhookSignature(request!.rawBody, request!.headers['x-service-signature'], secret)).toBe(true);

    const list = await ops(['deliveries', 'list', '--partner', partner.partnerId, '--json']);
    expect(list.code).toBe(0);
    expect(list.json.deliveries).toEqual([
      expect.objectContaining({
        deliveryId: request!.headers['x-service-delivery-id'],
        eventId: 'evt-1',
        event: 'order.created',
        orderId: data.order_id,
        status: 'delivered',
        attemptCount: 1,
        attempts: [
          expect.objectContaining({ chain: 1, attempt: 1, statusCode: 200, succeeded: true, url: partnerReceiver.url }),
        ],
      }),
    ]);
    expect(list.json.deliveries[0]).not.toHaveProperty('body');
    const table = await ops(['deliveries', 'list', '--partner', partner.partnerId]);
    expect(table.lines[0]).toMatch(
      /^DELIVERY ID\s+EVENT\s+ORDER\s+STATUS\s+CHAIN\s+ATTEMPTS\s+LAST RESULT\s+NEXT ATTEMPT\s+ALERT\s+CREATED$/,
    );
    expect(table.lines[1]).toMatch(
      new RegExp(
        `^${request!.headers['x-service-delivery-id']}\\s+order\\.created\\s+${data.order_id}\\s+delivered\\s+1\\s+1\\s+200\\s`,
      ),
    );
    expect((await ops(['deliveries', 'list', '--partner', partner.partnerId, '--status', 'failed'])).lines).toEqual([
      `No deliveries for partner ${partner.partnerId} with status failed.`,
    ]);

    const shown = await ops([
      'deliveries',
      'show',
      '--delivery',
      String(request!.headers['x-service-delivery-id']),
      '--json',
    ]);
    expect(shown.json).toMatchObject({
      status: 'delivered',
      body: request!.rawBody.toString(),
      attempts: [expect.objectContaining({ statusCode: 200 })],
    });
    const shownText = await ops([
      'deliveries',
      'show',
      '--delivery',
      String(request!.headers['x-service-delivery-id']).toUpperCase(),
    ]);
    expect(shownText.code).toBe(0);
    expect(shownText.lines).toContainEqual(expect.stringMatching(new RegExp(`^orderId:\\s+${data.order_id}$`)));
    expect(shownText.lines.at(-1)).toBe(request!.rawBody.toString());

    expect(published.json).not.toHaveProperty('alreadyPublished');
    // The same event id again: accepted, but nothing new is delivered, and it says so.
    const deliveryId = String(request!.headers['x-service-delivery-id']);
    const again = await ops([
      'order-event',
      '--partner',
      partner.partnerId,
      '--event',
      'order.created',
      '--data',
      `@${file}`,
      '--event-id',
      'evt-1',
    ]);
    expect(again.code).toBe(0);
    expect(again.lines.at(-1)).toBe(
      `Already published: event evt-1 has delivery ${deliveryId}; this copy delivers nothing new: npm run ops -- deliveries show --delivery ${deliveryId}`,
    );
    expect(again.text).not.toMatch(/Queued|Published:/);
    const againJson = await ops([
      'order-event',
      '--partner',
      partner.partnerId,
      '--event',
      'order.created',
      '--data',
      `@${file}`,
      '--event-id',
      'evt-1',
      '--json',
    ]);
    expect(againJson.json).toMatchObject({ eventId: 'evt-1', alreadyPublished: true, deliveryId });
    await processQueues();
    expect(partnerReceiver.requests).toHaveLength(1);
    expect((await ops(['deliveries', 'list', '--partner', partner.partnerId, '--json'])).json.deliveries).toHaveLength(
      1,
    );
  });

  it('a failing endpoint: deliveries list --status failed, one alert in the outbox, replay delivers the same body and id', async () => {
    let healthy = false;
    const partnerReceiver = await receiver(() => (healthy ? 200 : 502));
    const partner = await aPartner();
    await setUp(partner.apiKey, 'flaky');
    await ops(['webhook', 'set', '--partner', partner.partnerId, '--url', partnerReceiver.url]);
    const data = JSON.stringify(orderCreatedData('flaky'));
    expect(
      (await ops(['order-event', '--partner', partner.partnerId, '--event', 'order.created', '--data', data])).code,
    ).toBe(0);
    await processQueues();

    const failed = await ops(['deliveries', 'list', '--partner', partner.partnerId, '--status', 'failed', '--json']);
    expect(failed.json.deliveries).toHaveLength(1);
    const [delivery] = failed.json.deliveries;
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 2, alertStatus: 'sent' });
    expect(
      (await ops(['deliveries', 'list', '--partner', partner.partnerId, '--status', 'delivered', '--json'])).json
        .deliveries,
    ).toEqual([]);
    expect(
      (await ops(['deliveries', 'list', '--partner', partner.partnerId, '--limit', '1', '--json'])).json.deliveries,
    ).toHaveLength(1);

    const mail = await ops(['outbox', '--to', partner.alertEmail, '--json']);
    expect(mail.code).toBe(0);
    expect(mail.json.emails).toEqual([
      expect.objectContaining({
        to: [partner.alertEmail],
        subject: expect.stringContaining(delivery.deliveryId),
        text: expect.any(String),
      }),
    ]);
    const mailText = await ops(['outbox', '--to', partner.alertEmail]);
    expect(mailText.text).toMatch(new RegExp(`^subject: .*${delivery.deliveryId}`, 'm'));
    expect((await ops(['outbox', '--to', 'nobody@partner.test'])).lines).toEqual([
      'No e-mails to nobody@partner.test.',
    ]);

    healthy = true;
    const replayed = await ops(['deliveries', 'replay', '--delivery', delivery.deliveryId, '--json']);
    expect(replayed.code).toBe(0);
    expect(replayed.json).toMatchObject({ deliveryId: delivery.deliveryId, status: 'pending', chain: 2 });
    await processQueues();

    const shown = await ops(['deliveries', 'show', '--delivery', delivery.deliveryId, '--json']);
    expect(shown.json).toMatchObject({ status: 'delivered', chain: 2, attemptCount: 1 });
    // The readable output has every field --json has, the attempts' response bodies included.
    const shownText = (await ops(['deliveries', 'show', '--delivery', delivery.deliveryId])).text;
    for (const key of ['succeeded', 'statuscode', 'latencyms', 'responsebody', 'body'])
      expect([...jsonKeys(shown.json)]).toContain(key);
    expect(missingFromText(shown.json, shownText)).toEqual([]);
    for (const attempt of shown.json.attempts)
      if (attempt.responseBody) expect(shownText).toContain(attempt.responseBody);
    expect(shown.json.attempts.map((a: any) => [a.chain, a.attempt, a.statusCode])).toEqual([
      [1, 1, 502],
      [1, 2, 502],
      [2, 1, 200],
    ]);
    const requests = partnerReceiver.requests;
    expect(requests).toHaveLength(3);
    expect(requests[2]!.headers['x-service-delivery-id']).toBe(delivery.deliveryId);
    expect(requests[2]!.rawBody.equals(requests[0]!.rawBody)).toBe(true);
    expect((await ops(['outbox', '--to', partner.alertEmail, '--json'])).json.emails).toHaveLength(1);
  });

  it('refuses bad order events in one line, each problem once', async () => {
    const partner = await aPartner();
    await setUp(partner.apiKey, 'strict');
    const publish = (...extra: string[]) => ops(['order-event', '--partner', partner.partnerId, ...extra]);

    const early = unreachable();
    expectOneLineError(
      await ops(['order-event', '--partner', partner.partnerId, '--event', 'order.lost', '--data', '{}'], early),
      1,
      /--event must be one of "order\.created", /,
    );
    expectUsageError(
      await ops(['order-event', '--partner', partner.partnerId, '--event', 'order.created'], early),
      /^Error: --data is required: give --data /,
    );
    expect(early.reached()).toBe(false);

    expectOneLineError(
      await publish('--event', 'order.created', '--data', '{nope'),
      1,
      /^Error: The --data value is not valid JSON: data is not valid JSON/,
    );
    expectOneLineError(
      await publish('--event', 'order.created', '--data', `@${join(dir, 'missing.json')}`),
      1,
      /ENOENT/,
    );
    const invalid = await publish(
      '--event',
      'order.confirmed',
      '--data',
      JSON.stringify({ order_id: randomUUID(), partner_org_id: 'strict' }),
    );
    expectOneLineError(invalid, 1, /^Error: Invalid order\.confirmed data: confirmed_at is required$/);
    expectOneLineError(
      await publish(
        '--event',
        'order.created',
        '--data',
        JSON.stringify(orderCreatedData('strict')),
        '--event-id',
        'has space',
      ),
      1,
      /eventId must be 1-128 characters/,
    );
    expectOneLineError(
      await publish('--event', 'order.created', '--data', JSON.stringify(orderCreatedData('nowhere'))),
      1,
      `Partner ${partner.partnerId} has no organization with internalOrgId "nowhere"`,
    );
  });

  it('refuses unknown deliveries and malformed options in one line', async () => {
    const partner = await aPartner();
    const unknown = randomUUID();
    expectOneLineError(await ops(['deliveries', 'show', '--delivery', unknown]), 1, `No delivery ${unknown}`);
    expectOneLineError(await ops(['deliveries', 'replay', '--delivery', unknown]), 1, `No delivery ${unknown}`);
    const early = unreachable();
    expectOneLineError(await ops(['deliveries', 'show', '--delivery', 'd-1'], early), 1, '--delivery must be a UUID');
    expectOneLineError(
      await ops(['deliveries', 'list', '--partner', partner.partnerId, '--status', 'lost'], early),
      1,
      '--status must be one of "pending", "delivered", "failed"',
    );
    expectOneLineError(
      await ops(['outbox', '--to', 'not-an-address'], early),
      1,
      '--to must be an e-mail address, e.g. ops@example.com',
    );
    expect(early.reached()).toBe(false);
    expectOneLineError(await ops(['deliveries', 'list', '--partner', unknown]), 1, `No partner ${unknown}`);
  });
});

describe('outbox and --stage', () => {
  it('refuses --stage with a usage error before reaching any deployed stack', async () => {
    const early = unreachable();
    for (const stage of ['production', 'sandbox'] as const) {
      expectOneLineError(
        await ops(['outbox'], { deps: early.deps, stage }),
        2,
        `Error: outbox works on the local stack only (npm start); it cannot be used with --stage ${stage}`,
      );
    }
    expect(early.reached()).toBe(false);
  });

  it('npm run ops -- outbox --stage production says so on stderr and exits 2, without AWS', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bin/ops.ts', 'outbox', '--stage', 'production'], {
      encoding: 'utf8',
      env: { ...process.env, AWS_REGION: '', AWS_PROFILE: '' },
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      'Error: outbox works on the local stack only (npm start); it cannot be used with --stage production',
    );
  });
});

describe('command line', () => {
  it('lists every command in --help, and each command has a usage line', async () => {
    const help = await ops(['--help']);
    for (const name of [
      'organization list',
      'organization show',
      'profile disable',
      'profile enable',
      'session list',
      'session revoke',
      'webhook set',
      'webhook show',
      'webhook rotate-secret',
      'order-event',
      'deliveries list',
      'deliveries show',
      'deliveries replay',
      'outbox',
    ]) {
      expect(Object.keys(COMMANDS)).toContain(name);
      expect(help.text).toMatch(new RegExp(`^  ${name} `, 'm'));
      const usage = await ops([...name.split(' '), '--help']);
      expect(usage.code).toBe(0);
      expect(usage.lines[0]).toMatch(new RegExp(`^Usage: npm run ops -- ${name} `));
    }
    expect((await ops(['order-event', '--help'])).lines[0]).toBe(
      'Usage: npm run ops -- order-event --partner ID --event KIND --data JSON|@FILE [--event-id ID] [--json] [--stage STAGE]',
    );
    expect((await ops(['deliveries', 'list', '--help'])).lines[0]).toBe(
      'Usage: npm run ops -- deliveries list --partner ID [--status STATUS] [--limit N] [--json] [--stage STAGE]',
    );
  });

  it('answers a bare group, an unknown subcommand and an unknown option with exit 2', async () => {
    for (const group of ['webhook', 'deliveries', 'session', 'organization', 'profile']) {
      const run = await ops([group]);
      expect(run.code).toBe(2);
      expect(run.lines[0]).toBe(`Error: "${group}" needs a command`);
    }
    const unknown = await ops(['webhook', 'delete', '--partner', randomUUID()]);
    expect(unknown.code).toBe(2);
    expect(unknown.lines[0]).toBe('Error: unknown command "webhook delete"');
    const option = await ops(['outbox', '--all']);
    expect(option.code).toBe(2);
    expect(option.lines[0]).toMatch(/^Error: Unknown option '--all'/);
  });
});
