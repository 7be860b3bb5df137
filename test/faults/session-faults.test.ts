/**
 * The handshake never hands out a token it did not store, and the embed host never hands
 * out a session cookie it did not store, whatever DynamoDB call fails, loses its answer
 * or stalls. test/integration/handshake.test.ts covers a deleted sessions table (500);
 * this sweeps every call of both requests, and a concurrent burst with random faults.
 */
import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { tableName } from '../../functions/resources/resource-definitions';
import { describeCall, FaultPlan, modesFor, injectAwsFaults } from '../support/fault-plan';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';

const HANDSHAKE = '/v1/partner/handshake';
const COOKIE = '__Host-embed_session';
const HANDSHAKE_500 = { error: 'Failed to create authentication session', details: expect.any(String) };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const HEX64 = /[0-9a-f]{64}/;

const plan = new FaultPlan();
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  injectAwsFaults(plan, stack.deps.aws.db, { service: 'dynamodb', prefix: stack.config.RESOURCE_PREFIX });
  plan.stallMs = 30;
});
afterAll(() => stack.close());

const sessionsTable = () => tableName(stack.config.RESOURCE_PREFIX, 'sessions');
const getItem = async (pk: string, sk: string) =>
  (await stack.deps.aws.db.send(new GetCommand({ TableName: sessionsTable(), Key: { pk, sk }, ConsistentRead: true })))
    .Item;

async function aPartnerWithProfile() {
  const partner = await stack.createPartner();
  const { profile } = await provisionProfile(stack.deps, partner.partnerId as PartnerId);
  return { ...partner, profile };
}

async function withFaults<T>(arm: () => void, run: () => Promise<T>): Promise<T> {
  plan.reset();
  arm();
  try {
    return await run();
  } finally {
    plan.disarm();
  }
}

/** A 200 must name a stored, issued token of this profile; anything else must carry no token at all. */
async function expectOnlyStoredTokens(res: TestResponse, profileId: string, label: string) {
  if (res.status === 200) {
    const item = await getItem(`TOKEN#${sha256(res.body.session_key)}`, 'TOKEN');
    expect(item, `${label}: token of a 200 is not stored`).toMatchObject({ state: 'issued', profileId });
  } else {
    expect(res.status, label).toBe(500);
    expect(res.body, label).toEqual(HANDSHAKE_500);
    expect(res.text, label).not.toMatch(HEX64);
  }
}

const browse = async (path: string, cookie?: string) => {
  const res = await fetch(`${stack.url}${path}`, {
    redirect: 'manual',
    headers: cookie ? { Cookie: `${COOKIE}=${cookie}` } : {},
  });
  const setCookie = res.headers
    .getSetCookie()
    .map((c) => new RegExp(`^${COOKIE}=([0-9a-f]{64});`).exec(c)?.[1])
    .find(Boolean);
  return { status: res.status, headers: res.headers, text: await res.text(), cookie: setCookie };
};

describe('the handshake under a fault at every step', () => {
  it.each([
    ['profile_id', (p: { profile: { id: string } }) => ({ profile_id: p.profile.id })],
    [
      'internal_user_id',
      (p: { profile: { internalUserId: string } }) => ({ internal_user_id: p.profile.internalUserId }),
    ],
  ])('by %s: every 200 names a stored token, every failure is a 500 with no token', async (_by, bodyOf) => {
    const baseline = await aPartnerWithProfile();
    const ok = await withFaults(
      () => undefined,
      () => stack.post(HANDSHAKE, bodyOf(baseline), { 'X-API-Key': baseline.apiKey }),
    );
    expect(ok.status).toBe(200);
    const steps = [...plan.calls];
    expect(steps.map(describeCall)).toContain('dynamodb:PutItem(sessions)');

    for (const [index, step] of steps.entries()) {
      for (const mode of modesFor(step, ['fail', 'lose', 'stall'])) {
        const label = `step ${index} ${describeCall(step)} ${mode}`;
        const partner = await aPartnerWithProfile();
        const res = await withFaults(
          () => plan.atStep(index, mode),
          () => stack.post(HANDSHAKE, bodyOf(partner), { 'X-API-Key': partner.apiKey }),
        );
        expect(
          plan.injected.map((i) => describeCall(i.call)),
          label,
        ).toEqual([describeCall(step)]);
        if (mode === 'stall') expect(res.status, label).toBe(200);
        await expectOnlyStoredTokens(res, partner.profile.id, label);
        // The partner's retry gets a working token.
        stack.clock.advance(1_000);
        const retried = await stack.post(HANDSHAKE, bodyOf(partner), { 'X-API-Key': partner.apiKey });
        expect(retried.status, label).toBe(200);
        await expectOnlyStoredTokens(retried, partner.profile.id, label);
      }
    }
  });

  it('hands out only stored tokens in a concurrent burst where session writes randomly fail, lose their answer or stall, and each redeems exactly once', async () => {
    const partner = await aPartnerWithProfile();
    const isSessionWrite = (call: { operation: string; target: string }) =>
      call.operation === 'PutItem' && call.target === 'sessions';
    const results = await withFaults(
      () =>
        plan
          .randomly(isSessionWrite, 'fail', 0.25, 7)
          .randomly(isSessionWrite, 'lose', 0.25, 11)
          .randomly(isSessionWrite, 'stall', 0.3, 13),
      () =>
        Promise.all(
          Array.from({ length: 60 }, () =>
            stack.post(HANDSHAKE, { profile_id: partner.profile.id }, { 'X-API-Key': partner.apiKey }),
          ),
        ),
    );
    const modes = plan.injected.map((i) => i.mode);
    expect(modes).toContain('fail');
    expect(modes).toContain('lose');
    expect(modes).toContain('stall');
    for (const [index, res] of results.entries())
      await expectOnlyStoredTokens(res, partner.profile.id, `request ${index}`);
    const issued = results.filter((r) => r.status === 200);
    // A lost answer is a 500 too: the service cannot know the write landed.
    expect(issued).toHaveLength(60 - modes.filter((m) => m !== 'stall').length);

    const redeemed = await Promise.all(
      issued.map((r) => browse(new URL(r.body.iframe_embed_url).pathname + new URL(r.body.iframe_embed_url).search)),
    );
    expect(redeemed.map((r) => r.status)).toEqual(issued.map(() => 303));
    const again = await Promise.all(
      issued.map((r) => browse(new URL(r.body.iframe_embed_url).pathname + new URL(r.body.iframe_embed_url).search)),
    );
    expect(again.map((r) => r.status)).toEqual(issued.map(() => 401));
  });
});

describe('the embed host under a fault at every step of a redemption', () => {
  it('sets a cookie only for a stored session, answers a hardened page otherwise, and never burns a token before it is redeemed', async () => {
    const redeemPath = async (partner: Awaited<ReturnType<typeof aPartnerWithProfile>>) => {
      const res = await stack.post(HANDSHAKE, { profile_id: partner.profile.id }, { 'X-API-Key': partner.apiKey });
      expect(res.status).toBe(200);
      const url = new URL(res.body.iframe_embed_url);
      return { path: `${url.pathname}${url.search}`, tokenHash: sha256(res.body.session_key) };
    };
    const baseline = await aPartnerWithProfile();
    const { path } = await redeemPath(baseline);
    const ok = await withFaults(
      () => undefined,
      () => browse(path),
    );
    expect(ok.status).toBe(303);
    const steps = [...plan.calls];
    expect(steps.map(describeCall)).toEqual(
      expect.arrayContaining(['dynamodb:UpdateItem(sessions)', 'dynamodb:PutItem(sessions)']),
    );

    const outcomes: string[] = [];
    for (const [index, step] of steps.entries()) {
      for (const mode of modesFor(step, ['fail', 'lose'])) {
        const label = `step ${index} ${describeCall(step)} ${mode}`;
        const partner = await aPartnerWithProfile();
        const link = await redeemPath(partner);
        const first = await withFaults(
          () => plan.atStep(index, mode),
          () => browse(link.path),
        );
        expect(plan.injected, label).toHaveLength(1);
        expect([303, 500], label).toContain(first.status);
        expect(first.headers.get('content-security-policy'), label).toMatch(/frame-ancestors /);
        expect(first.headers.get('cache-control'), label).toBe('no-store');
        expect(first.text, label).not.toContain(link.path.split('session_key=')[1]);
        if (first.cookie) {
          expect(first.status, label).toBe(303);
          expect(await getItem(`EMBED#${sha256(first.cookie)}`, 'EMBED'), label).toMatchObject({ state: 'active' });
          expect((await browse(`/embedded/${partner.partnerId}`, first.cookie)).status, label).toBe(200);
        } else {
          expect(first.status, label).toBe(500);
        }
        // The token is burned only if the redeeming write itself landed.
        const token = await getItem(`TOKEN#${link.tokenHash}`, 'TOKEN');
        const retry = await browse(link.path);
        if (token?.state === 'issued') expect(retry.status, `${label}: an unburned token must still redeem`).toBe(303);
        else expect(retry.status, label).toBe(401);
        outcomes.push(`${index}:${mode}→${first.status}/${retry.status}`);
      }
    }
    console.log(
      `[faults] embed redemption: ${steps.length} steps × fail/lose [${steps.map(describeCall).join(' → ')}] outcomes ${outcomes.join(' ')}`,
    );
  });
});
