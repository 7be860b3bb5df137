import { createHash, randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { tableName } from '../../functions/resources/resource-definitions';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { startTestStack, type TestStack } from '../support/test-stack';

const HANDSHAKE = '/v1/partner/handshake';
const xApiKey = (key: string) => ({ 'X-API-Key': key });
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
beforeAll(async () => {
  stack = await startTestStack();
  partner = await stack.createPartner();
});
afterAll(() => stack.close());

const handshake = (body: unknown, apiKey = partner.apiKey) => stack.post(HANDSHAKE, body, xApiKey(apiKey));

const sessionItems = async (stackUnderTest: TestStack = stack) =>
  (
    await stackUnderTest.deps.aws.db.send(
      new ScanCommand({
        TableName: tableName(stackUnderTest.config.RESOURCE_PREFIX, 'sessions'),
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('a successful handshake', () => {
  it('answers 200 with a fresh 64-hex session key, the iframe URL, a 5-minute expiry and the profile', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const res = await handshake({ internal_user_id: profile.internalUserId });

    expect(res.status).toBe(200);
    const key: string = res.body.session_key;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body).toEqual({
      success: true,
      session_key: key,
      iframe_embed_url: `${stack.config.EMBED_BASE_URL}/embedded/${partner.partnerId}?session_key=${key}`,
      expires_at: new Date(stack.clock.now().getTime() + 5 * 60_000).toISOString(),
      profile: { id: profile.id, first_name: 'Ada', last_name: 'Lovelace', email: profile.email },
    });
  });

  it('finds the profile by profile_id as well', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const res = await handshake({ profile_id: profile.id });
    expect(res.status).toBe(200);
    expect(res.body.profile.id).toBe(profile.id);
  });

  it('mints a different token on every call', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const keys = await Promise.all([1, 2, 3].map(() => handshake({ profile_id: profile.id })));
    expect(new Set(keys.map((r) => r.body.session_key)).size).toBe(3);
  });

  it('stores only the SHA-256 of the token, with partner, profile, expiry, state issued and a TTL', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const res = await handshake({ profile_id: profile.id });
    const key: string = res.body.session_key;

    const items = await sessionItems();
    expect(JSON.stringify(items)).not.toContain(key);
    const stored = items.find((item) => item.pk === `TOKEN#${sha256(key)}`);
    expect(stored).toMatchObject({
      partnerId: partner.partnerId,
      profileId: profile.id,
      state: 'issued',
      expiresAt: res.body.expires_at,
      ttl: expect.any(Number),
    });
    expect(stored?.ttl).toBeGreaterThan(Date.parse(res.body.expires_at) / 1000);
  });

  it('never writes the session key to the log', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const res = await handshake({ profile_id: profile.id });
    expect(res.status).toBe(200);
    expect(stack.rawLogLines.join('\n')).not.toContain(res.body.session_key);
  });

  it('accepts internal_org_id to choose between organizations that share an internal_user_id', async () => {
    const internalUserId = `shared-${randomUUID().slice(0, 6)}`;
    const first = await provisionProfile(stack.deps, partner.partnerId, aSetupBody({ internalUserId }));
    const second = await provisionProfile(stack.deps, partner.partnerId, aSetupBody({ internalUserId }));
    const res = await handshake({
      internal_user_id: internalUserId,
      internal_org_id: second.organization.internalOrgId,
    });
    expect(res.status).toBe(200);
    expect(res.body.profile.id).toBe(second.profile.id);
    expect(res.body.profile.id).not.toBe(first.profile.id);
  });
});

describe('handshake errors (contract: handshake error table)', () => {
  it('400 Invalid request body when neither internal_user_id nor profile_id is given', async () => {
    const res = await handshake({ internal_org_id: 'org-1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request body',
      details: [
        { code: 'IDENTIFIER_REQUIRED', message: 'request body must contain internal_user_id or profile_id', path: [] },
      ],
    });
  });

  it('400 Invalid request body when profile_id is not a UUID', async () => {
    const res = await handshake({ profile_id: 'not-a-uuid' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request body',
      details: [{ code: 'INVALID_UUID', message: 'profile_id must be a UUID', path: ['profile_id'] }],
    });
  });

  it('400 Invalid request body when both internal_user_id and profile_id are given (docs/architecture.md, "Handshake identifiers")', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const res = await handshake({ internal_user_id: profile.internalUserId, profile_id: profile.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request body',
      details: [{ code: 'CONFLICTING_FIELDS', message: expect.stringContaining('exactly one'), path: ['profile_id'] }],
    });
  });

  it.each([
    [{ internal_user_id: 42 }, 'INVALID_TYPE', ['internal_user_id']],
    [{ internal_user_id: '   ' }, 'REQUIRED', ['internal_user_id']],
    [{ profile_id: null }, 'INVALID_TYPE', ['profile_id']],
  ])('400 Invalid request body for %j', async (body, code, path) => {
    const res = await handshake(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request body');
    expect(res.body.details).toContainEqual({ code, message: expect.any(String), path });
  });

  it('400 naming the ambiguity when internal_user_id matches profiles in two organizations', async () => {
    const internalUserId = `twice-${randomUUID().slice(0, 6)}`;
    const a = await provisionProfile(stack.deps, partner.partnerId, aSetupBody({ internalUserId }));
    const b = await provisionProfile(stack.deps, partner.partnerId, aSetupBody({ internalUserId }));
    const res = await handshake({ internal_user_id: internalUserId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request body',
      details: [
        { code: 'AMBIGUOUS_USER', message: expect.stringContaining('internal_org_id'), path: ['internal_user_id'] },
      ],
    });
    expect(res.body.details[0].message).toContain(a.organization.internalOrgId);
    expect(res.body.details[0].message).toContain(b.organization.internalOrgId);
  });

  it('400 Profile not set up for authentication when the profile has no identity user', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    await stack.deps.organizations.unlinkProfile(profile.id, stack.clock.now());
    const res = await handshake({ profile_id: profile.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Profile not set up for authentication', details: expect.any(String) });
  });

  it('400 Profile not set up for authentication when the identity user is disabled', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    await stack.deps.profileAdmin.disable(partner.partnerId, profile.id);
    const res = await handshake({ internal_user_id: profile.internalUserId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Profile not set up for authentication',
      details: expect.stringContaining('disabled'),
    });
  });

  it('401 Unauthorized with a message when the API key is missing or invalid', async () => {
    for (const headers of [{}, xApiKey(`sk_test_${'0'.repeat(64)}`)]) {
      const res = await stack.post(HANDSHAKE, { internal_user_id: 'u-1' }, headers);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'Unauthorized', message: expect.any(String) });
    }
  });

  it('403 Forbidden when the key lacks the session:write scope', async () => {
    const narrow = await stack.createPartner({ scopes: ['organization:write'] });
    const res = await handshake({ internal_user_id: 'u-1' }, narrow.apiKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Forbidden');
  });

  it("403 Forbidden for another partner's profile_id, and no token is stored", async () => {
    const other = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, other.partnerId);
    const before = (await sessionItems()).length;
    const res = await handshake({ profile_id: profile.id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Forbidden' });
    expect(JSON.stringify(res.body)).not.toContain(profile.email);
    expect((await sessionItems()).length).toBe(before);
  });

  it('404 Profile not found for an unknown profile_id or internal_user_id', async () => {
    for (const body of [{ profile_id: randomUUID() }, { internal_user_id: `nobody-${randomUUID()}` }]) {
      const res = await handshake(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Profile not found', details: expect.any(String) });
    }
  });

  it("404 Profile not found for another partner's internal_user_id", async () => {
    const other = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, other.partnerId);
    const res = await handshake({ internal_user_id: profile.internalUserId });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Profile not found');
  });

  it('404 Profile not found when internal_org_id names another organization of the partner', async () => {
    const { profile } = await provisionProfile(stack.deps, partner.partnerId);
    const other = await provisionProfile(stack.deps, partner.partnerId);
    const byUser = await handshake({
      internal_user_id: profile.internalUserId,
      internal_org_id: other.organization.internalOrgId,
    });
    const byId = await handshake({
      profile_id: profile.id as ProfileId,
      internal_org_id: other.organization.internalOrgId,
    });
    expect([byUser.status, byId.status]).toEqual([404, 404]);
  });

  it('500 Failed to create authentication session when the session cannot be stored', async () => {
    const broken = await startTestStack();
    try {
      const brokenPartner = await broken.createPartner();
      const { profile } = await provisionProfile(broken.deps, brokenPartner.partnerId);
      await broken.deps.aws.db.send(
        new DeleteTableCommand({ TableName: tableName(broken.config.RESOURCE_PREFIX, 'sessions') }),
      );

      const res = await broken.post(HANDSHAKE, { profile_id: profile.id }, xApiKey(brokenPartner.apiKey));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to create authentication session', details: expect.any(String) });
      expect(res.text).not.toMatch(/table|dynamo|resource/i);
      expect(broken.logs.some((l) => l.level === 'error' && l.requestId === res.headers.get('request-id'))).toBe(true);
    } finally {
      await broken.close();
    }
  });
});
