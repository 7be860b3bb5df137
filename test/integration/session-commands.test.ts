import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Forbidden, NotFound, ValidationFailed } from '../../functions/domain/errors';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { listSessions, revokeSessions } from '../../lib/ops-cli/session-commands';
import { provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const COOKIE = '__Host-embed_session';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

async function handshake(apiKey: string, profileId: string) {
  const res = await stack.post('/v1/partner/handshake', { profile_id: profileId }, { 'X-API-Key': apiKey });
  expect(res.status).toBe(200);
  return res.body as { session_key: string; iframe_embed_url: string; expires_at: string };
}

async function redeem(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return /^__Host-embed_session=([0-9a-f]{64});/.exec(res.headers.getSetCookie()[0] ?? '')?.[1] as string;
}

const showModule = (partnerId: string, cookie: string) =>
  fetch(`${stack.url}/embedded/${partnerId}`, { headers: { Cookie: `${COOKIE}=${cookie}` }, redirect: 'manual' }).then(
    (r) => r.status,
  );

describe('session list --partner ID', () => {
  it('lists recent handshakes newest first as issued, used or expired, without any token or hash', async () => {
    const partner = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);

    const expired = await handshake(partner.apiKey, profile.id);
    stack.clock.advance(6 * 60_000);
    const used = await handshake(partner.apiKey, profile.id);
    await redeem(used.iframe_embed_url);
    stack.clock.advance(1_000);
    const issued = await handshake(partner.apiKey, profile.id);

    const result = await listSessions(stack.deps, { partner: partner.partnerId });
    expect(result.partnerId).toBe(partner.partnerId);
    expect(result.sessions.map((s) => [s.state, s.expiresAt])).toEqual([
      ['issued', issued.expires_at],
      ['used', used.expires_at],
      ['expired', expired.expires_at],
    ]);
    expect(result.sessions[1]).toEqual({
      id: expect.any(String),
      profileId: profile.id,
      internalOrgId: profile.internalOrgId,
      state: 'used',
      createdAt: expect.any(String),
      expiresAt: used.expires_at,
      usedAt: expect.any(String),
    });
    const printed = JSON.stringify(result);
    for (const key of [expired, used, issued].map((h) => h.session_key)) {
      expect(printed).not.toContain(key);
      expect(printed).not.toContain(sha256(key));
    }
  });

  it("shows only the partner's own sessions and honours --limit", async () => {
    const partner = await stack.createPartner();
    const other = await stack.createPartner();
    const mine = await provisionProfile(stack.deps, partner.partnerId);
    const theirs = await provisionProfile(stack.deps, other.partnerId);
    for (let i = 0; i < 3; i += 1) {
      await handshake(partner.apiKey, mine.profile.id);
      stack.clock.advance(1_000);
    }
    await handshake(other.apiKey, theirs.profile.id);

    expect((await listSessions(stack.deps, { partner: partner.partnerId })).sessions).toHaveLength(3);
    expect((await listSessions(stack.deps, { partner: partner.partnerId, limit: '2' })).sessions).toHaveLength(2);
  });

  it('fails clearly for an unknown partner or a malformed option', async () => {
    await expect(listSessions(stack.deps, { partner: randomUUID() })).rejects.toBeInstanceOf(NotFound);
    await expect(listSessions(stack.deps, { partner: 'nope' })).rejects.toBeInstanceOf(ValidationFailed);
    await expect(listSessions(stack.deps, { partner: randomUUID(), limit: 0 })).rejects.toBeInstanceOf(
      ValidationFailed,
    );
  });
});

describe('session revoke --partner ID --profile PROFILE_ID', () => {
  it("ends the user's live sessions, whose cookies then get the 401 page, and leaves other users alone", async () => {
    const partner = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const colleague = await provisionProfile(stack.deps, partner.partnerId);
    const laptop = await redeem((await handshake(partner.apiKey, profile.id)).iframe_embed_url);
    const tablet = await redeem((await handshake(partner.apiKey, profile.id)).iframe_embed_url);
    const loggedOut = await redeem((await handshake(partner.apiKey, profile.id)).iframe_embed_url);
    await fetch(`${stack.url}/embedded/${partner.partnerId}/logout`, {
      method: 'POST',
      headers: { Cookie: `${COOKIE}=${loggedOut}` },
    });
    const other = await redeem((await handshake(partner.apiKey, colleague.profile.id)).iframe_embed_url);

    const result = await revokeSessions(stack.deps, { partner: partner.partnerId, profile: profile.id });

    expect(result).toEqual({
      partnerId: partner.partnerId,
      profileId: profile.id,
      revoked: [
        expect.objectContaining({ id: expect.any(String) }),
        expect.objectContaining({ id: expect.any(String) }),
      ],
    });
    expect(await showModule(partner.partnerId, laptop)).toBe(401);
    expect(await showModule(partner.partnerId, tablet)).toBe(401);
    expect(await showModule(partner.partnerId, other)).toBe(200);
    expect(JSON.stringify(result)).not.toMatch(/[0-9a-f]{64}/);

    expect((await revokeSessions(stack.deps, { partner: partner.partnerId, profile: profile.id })).revoked).toEqual([]);
  });

  it("refuses another partner's profile and an unknown partner", async () => {
    const partner = await stack.createPartner();
    const other = await stack.createPartner();
    const theirs = await provisionProfile(stack.deps, other.partnerId as PartnerId);
    await expect(
      revokeSessions(stack.deps, { partner: partner.partnerId, profile: theirs.profile.id }),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      revokeSessions(stack.deps, { partner: randomUUID(), profile: theirs.profile.id }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});
