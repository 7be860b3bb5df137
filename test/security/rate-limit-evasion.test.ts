/**
 * A partner cannot buy more than its per-minute budget by spreading requests over its
 * keys (a second key, a rotated-in key), by varying header spelling (name casing, the
 * `bearer` scheme's casing, whitespace around the key), or by sending them all at once;
 * and nobody without the key can spend a partner's budget. (The handshake's 300 are
 * shown through RateLimit-Remaining rather than 300 requests: one counter is one counter.)
 *
 * api-pipeline.test.ts proves the limits themselves (100 setup, 300 handshake), counting
 * per partner and endpoint, surviving one rotation after the window is spent, and the
 * reset with the next window; this mixes all the evasions into one concurrent burst.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyId } from '../../functions/domain/partners/partner';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** A partner with its first key, a second key, and a third rotated in for the second (whose old key is dead). */
async function aPartnerWithThreeKeys() {
  const first = await stack.createPartner();
  const second = await stack.deps.partnerAdmin.issueKey(first.partnerId);
  const third = await stack.deps.partnerAdmin.issueKey(first.partnerId);
  const rotated = await stack.deps.partnerAdmin.rotateKey(first.partnerId, third.keyId as ApiKeyId);
  return { partnerId: first.partnerId, keys: [first.apiKey, second.apiKey, rotated.apiKey] };
}

/** `count` requests all at once, so every evasion lands inside the same instant. */
const allAtOnce = <T>(count: number, request: (index: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: count }, (_, index) => request(index)));

const statusCounts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});

describe('rate limits cannot be dodged', () => {
  it('setup: 110 simultaneous requests over three keys and every header spelling get exactly 100 through', async () => {
    // Start at the beginning of a window, so the burst cannot straddle two.
    stack.clock.set(new Date(Math.ceil(stack.clock.now().getTime() / 60_000) * 60_000 + 60_000));
    const { keys } = await aPartnerWithThreeKeys();
    const spellings = (key: string): Record<string, string>[] => [
      { Authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { AUTHORIZATION: `BEARER ${key}` },
      { Authorization: `Bearer   ${key}  ` },
      { authorization: `BeArEr ${key}` },
    ];
    const variants = keys.flatMap(spellings);
    const statuses = (await allAtOnce(110, (i) => stack.post(SETUP, '{', variants[i % variants.length]))).map(
      (r) => r.status,
    );
    // The body is malformed on purpose: every authenticated request counts, whatever its outcome.
    expect(statusCounts(statuses)).toEqual({ 400: 100, 429: 10 });
    for (const headers of variants)
      expect((await stack.post(SETUP, '{', headers)).status, JSON.stringify(Object.keys(headers))).toBe(429);
  });

  it('handshake: every key of the partner and every header spelling draw on one counter', async () => {
    stack.clock.set(new Date(Math.ceil(stack.clock.now().getTime() / 60_000) * 60_000 + 60_000));
    const { keys } = await aPartnerWithThreeKeys();
    const variants = keys.flatMap((key): Record<string, string>[] => [
      { 'X-API-Key': key },
      { 'x-api-key': key },
      { 'X-API-KEY': key },
      { 'x-Api-kEY': ` ${key} ` },
    ]);
    // RateLimit-Remaining shows the partner's one counter going down by one per request, whichever key or spelling.
    const remaining: (string | null)[] = [];
    for (const headers of variants)
      remaining.push((await stack.post(HANDSHAKE, '{', headers)).headers.get('ratelimit-remaining'));
    expect(remaining).toEqual(variants.map((_, i) => String(300 - 1 - i)));
    const other = await stack.createPartner();
    expect((await stack.post(HANDSHAKE, '{', { 'X-API-Key': other.apiKey })).headers.get('ratelimit-remaining')).toBe(
      '299',
    );
  });

  it("cannot be spent by anyone without the partner's key: refused keys count for nobody", async () => {
    stack.clock.set(new Date(Math.ceil(stack.clock.now().getTime() / 60_000) * 60_000 + 60_000));
    const partner = await stack.createPartner();
    const key = partner.apiKey;
    const body = key.slice('sk_test_'.length);
    const forged = [
      `sk_test_${body.slice(0, -1)}${body.endsWith('0') ? '1' : '0'}`, // one digit off
      `sk_live_${body}`, // the other environment's prefix
      `SK_TEST_${body}`,
      `sk_test_${body.toUpperCase()}`,
      `${key}0`,
      key.slice(0, -1),
    ];
    const refused = await allAtOnce(60, (i) =>
      stack.post(SETUP, '{', { Authorization: `Bearer ${forged[i % forged.length]}` }),
    );
    expect(new Set(refused.map((r) => r.status))).toEqual(new Set([401]));
    const revoked = await stack.deps.partnerAdmin.rotateKey(partner.partnerId, partner.keyId as ApiKeyId);
    expect((await stack.post(SETUP, '{', { Authorization: `Bearer ${key}` })).status).toBe(401); // the rotated-away key

    // The partner's first own request of the window finds its whole budget there.
    const own = await stack.post(SETUP, '{', { Authorization: `Bearer ${revoked.apiKey}` });
    expect(own.status).toBe(400);
    expect(own.headers.get('ratelimit-remaining')).toBe('99');
  });
});
