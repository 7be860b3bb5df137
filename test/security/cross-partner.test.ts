/**
 * Partner B's resources, addressed with partner A's credentials or A's partner id, on
 * every route and every operator command that takes a partner and a resource. Two
 * partners share the same internalOrgId and internalUserId, the likeliest collision.
 *
 * Already proven elsewhere and not repeated: separate organizations for the same
 * internalOrgId (setup.test.ts), another partner's profile_id → 403 and internal_user_id
 * → 404 (handshake.test.ts), a token or cookie at another partner's path → 401
 * (embed-host.test.ts), key revoke of another partner's key (ops-cli.test.ts), per-partner
 * rate limits and Idempotency-Keys. This file adds the variants those leave open, the
 * side effects (B's things keep working after A's refused attempt), and the CLI sweep.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { verifyWebhookSignature } from '../../sdk/src/webhooks/verify-webhook-signature';
import { COMMANDS, runOps } from '../../lib/ops-cli/run-ops';
import { aLocation, aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';
import { orderCreatedData } from '../support/webhook-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';
const COOKIE = '__Host-embed_session';
const SHARED_ORG = 'shared-org';

interface World {
  partnerId: PartnerId;
  apiKey: string;
  keyId: string;
  orgId: string;
  profileId: string;
  ownOnlyOrg: string;
  ownOnlyUser: string;
  ownOnlyProfileId: string;
  cookie: string;
  receiver: WebhookReceiver;
  secret: string;
}

let stack: TestStack;
let a: World;
let b: World;

async function aWorld(): Promise<World> {
  const { partnerId, apiKey, keyId } = await stack.createPartner();
  const bearer = { Authorization: `Bearer ${apiKey}` };
  const shared = await stack.post(
    SETUP,
    aSetupRequest()
      .forOrg(SHARED_ORG)
      .forUser('u-1')
      .withLocations(aLocation('dock', { isDefault: true }))
      .build(),
    bearer,
  );
  expect(shared.status).toBe(200);
  const ownOnlyOrg = `only-${randomUUID().slice(0, 6)}`;
  const ownOnlyUser = `solo-${randomUUID().slice(0, 6)}`;
  const own = await stack.post(SETUP, aSetupRequest().forOrg(ownOnlyOrg).forUser(ownOnlyUser).build(), bearer);
  expect(own.status).toBe(200);
  const handshake = await stack.post(HANDSHAKE, { profile_id: shared.body.data.profile.id }, { 'X-API-Key': apiKey });
  const url = new URL(handshake.body.iframe_embed_url);
  const redeemed = await fetch(`${stack.url}${url.pathname}${url.search}`, { redirect: 'manual' });
  const cookie = /__Host-embed_session=([0-9a-f]{64})/.exec(redeemed.headers.getSetCookie().join('\n'))?.[1] as string;
  const receiver = await startWebhookReceiver();
  const { generatedSecret } = await stack.deps.webhookAdmin.configureEndpoint({ partnerId, url: receiver.url });
  return {
    partnerId,
    apiKey,
    keyId,
    orgId: shared.body.data.organization.id,
    profileId: shared.body.data.profile.id,
    ownOnlyOrg,
    ownOnlyUser,
    ownOnlyProfileId: own.body.data.profile.id,
    cookie,
    receiver,
    secret: generatedSecret as string,
  };
}

beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  a = await aWorld();
  b = await aWorld();
});
afterAll(async () => {
  await Promise.all([a?.receiver.close(), b?.receiver.close()]);
  await stack.close();
});

const handshakeAs = (world: World, body: unknown) => stack.post(HANDSHAKE, body, { 'X-API-Key': world.apiKey });
const modulePage = async (partnerId: string, cookie: string) =>
  (
    await fetch(`${stack.url}/embedded/${partnerId}`, {
      redirect: 'manual',
      headers: { Cookie: `${COOKIE}=${cookie}` },
    })
  ).status;

/** B still works as before: its key, its profile's handshake and its embedded session. */
async function expectBUntouched() {
  expect((await handshakeAs(b, { profile_id: b.profileId })).status).toBe(200);
  expect(await modulePage(b.partnerId, b.cookie)).toBe(200);
}

describe('the API and the embed host, with partner A acting on partner B', () => {
  it("gives A its own organization for the shared internalOrgId, never B's", () => {
    expect(a.orgId).not.toBe(b.orgId);
    expect(a.profileId).not.toBe(b.profileId);
  });

  it("answers A's handshake for the shared internal_user_id and internal_org_id with A's own profile", async () => {
    const res = await handshakeAs(a, { internal_user_id: 'u-1', internal_org_id: SHARED_ORG });
    expect(res.status).toBe(200);
    expect(res.body.profile.id).toBe(a.profileId);
  });

  it("refuses B's profile_id even when A names an organization of its own with the same internalOrgId", async () => {
    const res = await handshakeAs(a, { profile_id: b.profileId, internal_org_id: SHARED_ORG });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Forbidden' });
    expect(res.text).not.toMatch(/@|session_key/);
  });

  it("answers 404 for B's organization named by internal_org_id, and for B's user within it", async () => {
    const cases: [object, number][] = [
      [{ internal_user_id: b.ownOnlyUser, internal_org_id: b.ownOnlyOrg }, 404],
      [{ internal_user_id: 'u-1', internal_org_id: b.ownOnlyOrg }, 404],
      [{ internal_user_id: b.ownOnlyUser }, 404],
      // The profile exists, under another partner: Forbidden, whatever organization is named.
      [{ profile_id: b.ownOnlyProfileId, internal_org_id: b.ownOnlyOrg }, 403],
    ];
    for (const [body, status] of cases) {
      const res = await handshakeAs(a, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.text).not.toMatch(/@|session_key/);
      expect(res.text).not.toContain(b.profileId);
    }
  });

  it("cannot sign B's user out by posting B's cookie to A's logout, nor show B's session at A's path", async () => {
    const logout = await fetch(`${stack.url}/embedded/${a.partnerId}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: `${COOKIE}=${b.cookie}`, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(logout.status).toBeLessThan(500);
    expect(await modulePage(a.partnerId, b.cookie)).toBe(401);
    await expectBUntouched();
  });

  it("delivers B's order events only to B's endpoint, signed with B's secret, even for the shared internalOrgId", async () => {
    await stack.deps.orderEvents.publish({
      partnerId: b.partnerId,
      event: 'order.created',
      data: orderCreatedData(SHARED_ORG),
    });
    while ((await stack.consumers.orderEvents.pollOnce()).received > 0);
    while ((await stack.consumers.webhookDeliveries.pollOnce()).received > 0);
    expect(a.receiver.requests).toHaveLength(0);
    expect(b.receiver.requests).toHaveLength(1);
    const [post] = b.receiver.requests;
    expect(verifyWebhookSignature(post!.rawBody, post!.headers['x-service-signature'], b.secret)).toBe(true);
    expect(verifyWebhookSignature(post!.rawBody, post!.headers['x-service-signature'], a.secret)).toBe(false);
    await expect(
      stack.deps.orderEvents.publish({
        partnerId: a.partnerId,
        event: 'order.created',
        data: orderCreatedData(b.ownOnlyOrg),
      }),
    ).rejects.toThrow();
  });
});

/** One operator command line against the test stack. */
async function ops(argv: string[]) {
  const lines: string[] = [];
  const code = await runOps(argv, { deps: stack.deps, out: (line) => lines.push(line) });
  return { code, text: lines.join('\n') };
}

/**
 * Every command that takes a partner and another partner's resource: it must refuse
 * (exit 1) and leave B as it was. The list must name every registered command with
 * `--partner` and a resource option, so a new one cannot slip past this test.
 */
const RESOURCE_OPTIONS = ['key', 'profile', 'org', 'delivery', 'data'];
const crossPartnerCommands = (): Record<string, () => string[]> => ({
  'key rotate': () => ['key', 'rotate', '--partner', a.partnerId, '--key', b.keyId],
  'key revoke': () => ['key', 'revoke', '--partner', a.partnerId, '--key', b.keyId],
  'profile disable': () => ['profile', 'disable', '--partner', a.partnerId, '--profile', b.profileId],
  'profile enable': () => ['profile', 'enable', '--partner', a.partnerId, '--profile', b.profileId],
  'session revoke': () => ['session', 'revoke', '--partner', a.partnerId, '--profile', b.profileId],
  'organization show': () => ['organization', 'show', '--partner', a.partnerId, '--org', b.ownOnlyOrg],
  'order list': () => ['order', 'list', '--partner', a.partnerId, '--org', b.ownOnlyOrg],
  'approvals list': () => ['approvals', 'list', '--partner', a.partnerId, '--org', b.ownOnlyOrg],
  'invoices list': () => ['invoices', 'list', '--partner', a.partnerId, '--org', b.ownOnlyOrg],
  'order-event': () => [
    'order-event',
    '--partner',
    a.partnerId,
    '--event',
    'order.created',
    '--data',
    JSON.stringify(orderCreatedData(b.ownOnlyOrg)),
  ],
  // The order commands' --partner/--org narrow the order lookup: B's organization under A names no order of A's.
  ...Object.fromEntries(
    (['show', 'confirm', 'ship', 'deliver', 'cancel', 'refund'] as const).map((action) => [
      `order ${action}`,
      () => [
        ...['order', action, '--partner', a.partnerId, '--org', b.ownOnlyOrg, '--order', randomUUID()],
        ...(action === 'ship'
          ? ['--carrier', 'UPS', '--tracking-number', '1Z999', '--tracking-url', 'https://ups.test/1Z999']
          : []),
        ...(action === 'ship' ? ['--estimated-delivery', '2036-01-02'] : []),
        ...(action === 'deliver' ? ['--signature', 'R. Receiver'] : []),
      ],
    ]),
  ),
  // --partner with --delivery is refused outright as a usage error (exit 2: one delivery, or a partner's since a time), whoever owns the delivery.
  'deliveries replay': () => ['deliveries', 'replay', '--partner', a.partnerId, '--delivery', randomUUID()],
});

describe('operator commands given partner A and a resource of partner B', () => {
  it('covers every registered command that takes a partner and a resource', () => {
    const registered = Object.entries(COMMANDS)
      .filter(
        ([, command]) =>
          'partner' in command.options && Object.keys(command.options).some((o) => RESOURCE_OPTIONS.includes(o)),
      )
      .map(([name]) => name)
      .sort();
    expect(registered).toEqual(Object.keys(crossPartnerCommands()).sort());
  });

  it.each(Object.keys(crossPartnerCommands()))(
    '%s refuses (exit 1, or 2 for a usage error), reveals nothing of B, and changes nothing of B',
    async (name) => {
      const deliveriesBefore = await stack.deps.webhookAdmin.listDeliveries(b.partnerId);
      const run = await ops(crossPartnerCommands()[name]!());
      expect(run.code, run.text).toBe(name === 'deliveries replay' ? 2 : 1);
      expect(run.text).toMatch(/^Error: /);
      // Echoing the ids the operator typed is fine; B's secrets and personal data are not.
      for (const secretOrData of [b.apiKey, b.secret, b.cookie, '@acme']) expect(run.text).not.toContain(secretOrData);
      await expectBUntouched();
      expect(await stack.deps.webhookAdmin.listDeliveries(b.partnerId)).toEqual(deliveriesBefore);
      expect(await stack.deps.webhookAdmin.listDeliveries(a.partnerId)).toEqual([]);
    },
  );

  it("lists only A's own organizations, sessions and deliveries when asked for A", async () => {
    for (const argv of [
      ['organization', 'list', '--partner', a.partnerId, '--json'],
      ['session', 'list', '--partner', a.partnerId, '--json'],
      ['deliveries', 'list', '--partner', a.partnerId, '--json'],
      ['webhook', 'show', '--partner', a.partnerId, '--json'],
    ]) {
      const run = await ops(argv);
      expect(run.code, `${argv.join(' ')}: ${run.text}`).toBe(0);
      for (const ofB of [b.orgId, b.profileId, b.ownOnlyOrg, b.partnerId, b.receiver.url]) {
        expect(run.text, `${argv.join(' ')} shows B's ${ofB}`).not.toContain(ofB);
      }
    }
  });
});
