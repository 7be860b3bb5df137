/**
 * GET and PATCH /v1/organizations/{internalOrgId}/users/{internalUserId} on the local
 * stack: the partner reads and changes its users, and `active: false` signs a user out of
 * the embedded module at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { aSetupRequest } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const COOKIE = '__Host-embed_session';

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
beforeAll(async () => {
  stack = await startTestStack();
  partner = await stack.createPartner();
});
afterAll(() => stack.close());

const bearer = (apiKey = partner.apiKey) => ({ Authorization: `Bearer ${apiKey}` });
let counter = 0;

/** A user set up through the API, with the extra fields setup takes. */
async function aUser(user: Record<string, unknown> = {}) {
  counter += 1;
  const body = aSetupRequest()
    .with({ internalOrgId: `org-users-${counter}`, internalUserId: `u-${counter}` })
    .build() as Record<string, any>;
  body.user = { ...body.user, ...user };
  const res = await stack.post('/v1/organizations/setup', body, bearer());
  expect(res.status, res.text).toBe(200);
  return { path: `/v1/organizations/org-users-${counter}/users/u-${counter}`, profile: res.body.data.profile, body };
}

describe('GET a user', () => {
  it('answers the profile as setup did, with role buyer, no limit and active by default', async () => {
    const { path, profile } = await aUser();
    const res = await stack.get(path, bearer());
    expect(res.status).toBe(200);
    expect(res.body.data.profile).toEqual({
      ...profile,
      role: 'buyer',
      orderLimit: null,
      monthlyLimit: null,
      active: true,
    });
  });

  it('shows the role and limit given at setup, the limit stored as cents', async () => {
    const { path, profile } = await aUser({ role: 'approver', orderLimit: 1234.5 });
    expect((await stack.get(path, bearer())).body.data.profile).toMatchObject({ role: 'approver', orderLimit: 1234.5 });
    const stored = await stack.deps.organizations.getProfile(profile.id);
    expect(stored?.orderLimitCents).toBe(123450);
  });

  it('refuses a bad role or limit at setup with every problem listed', async () => {
    const body = aSetupRequest().build() as Record<string, any>;
    body.user = { ...body.user, role: 'boss', orderLimit: 0 };
    const res = await stack.post('/v1/organizations/setup', body, bearer());
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string[] }) => d.path.join('.'))).toEqual(['user.role', 'user.orderLimit']);
  });

  it('answers 404 ORGANIZATION_NOT_FOUND and PROFILE_NOT_FOUND', async () => {
    const { path } = await aUser();
    expect((await stack.get('/v1/organizations/nowhere/users/u-1', bearer())).body.code).toBe('ORGANIZATION_NOT_FOUND');
    const unknownUser = await stack.get(`${path}-nobody`, bearer());
    expect([unknownUser.status, unknownUser.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
  });

  it("answers 404 for another partner's organization, as if it did not exist", async () => {
    const { path } = await aUser();
    const other = await stack.createPartner();
    const res = await stack.get(path, bearer(other.apiKey));
    expect([res.status, res.body.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND']);
    expect((await stack.patch(path, { active: false }, bearer(other.apiKey))).status).toBe(404);
    expect((await stack.get(path, bearer())).body.data.profile.active).toBe(true);
  });
});

describe('PATCH a user', () => {
  it('changes only the fields given, normalized as setup does', async () => {
    const { path, profile } = await aUser({ phoneNumber: '+1 512 555 0100' });
    const res = await stack.patch(
      path,
      { user: { lastName: '  Byron ', email: ' ada.byron@acme.test ' }, role: 'approver', orderLimit: 99.99 },
      bearer(),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.profile).toEqual({
      ...profile,
      last_name: 'Byron',
      email: 'ada.byron@acme.test',
      role: 'approver',
      orderLimit: 99.99,
      monthlyLimit: null,
      active: true,
    });
  });

  it('removes the phone number and the limit with null, and leaves them for a blank string', async () => {
    const { path } = await aUser({ phoneNumber: '+1 512 555 0100', orderLimit: 10 });
    const blank = await stack.patch(path, { user: { phoneNumber: '  ', firstName: 'Augusta' } }, bearer());
    expect(blank.body.data.profile).toMatchObject({
      phone_number: '+1 512 555 0100',
      first_name: 'Augusta',
      orderLimit: 10,
    });
    const removed = await stack.patch(path, { user: { phoneNumber: null }, orderLimit: null }, bearer());
    expect(removed.body.data.profile.phone_number).toBeUndefined();
    expect(removed.body.data.profile.orderLimit).toBeNull();
  });

  it('answers 400 VALIDATION_ERROR with details for bad fields, and for a body that changes nothing', async () => {
    const { path } = await aUser();
    const bad = await stack.patch(
      path,
      { user: { firstName: ' ', email: 'nope' }, role: 'boss', orderLimit: 1.005, active: 'no' },
      bearer(),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { code: string; path: string[] }) => `${d.path.join('.')}:${d.code}`)).toEqual([
      'user.firstName:REQUIRED',
      'user.email:INVALID_EMAIL',
      'role:INVALID_VALUE',
      'orderLimit:INVALID_AMOUNT',
      'active:INVALID_TYPE',
    ]);
    for (const empty of [{}, { user: {} }, { user: { phoneNumber: '' } }]) {
      const res = await stack.patch(path, empty, bearer());
      expect([res.status, res.body.details[0].code]).toEqual([400, 'NO_CHANGES']);
    }
    const noBody = await stack.patch(path, '', bearer());
    expect([noBody.status, noBody.body.details[0].code]).toEqual([400, 'BODY_REQUIRED']);
  });

  it('accepts an email another user of the organization has, as setup does', async () => {
    const { path, body } = await aUser();
    const second = aSetupRequest().with({ internalOrgId: body.internalOrgId, internalUserId: 'u-second' }).build();
    expect((await stack.post('/v1/organizations/setup', second, bearer())).status).toBe(200);
    const res = await stack.patch(
      path.replace(/users\/.*$/, 'users/u-second'),
      { user: { email: body.user.email } },
      bearer(),
    );
    expect([res.status, res.body.data?.profile.email]).toEqual([200, body.user.email]);
  });

  it('keeps both of two concurrent changes of different fields', async () => {
    const { path } = await aUser();
    for (let round = 0; round < 5; round += 1) {
      const [a, b] = await Promise.all([
        stack.patch(path, { user: { firstName: `First${round}` } }, bearer()),
        stack.patch(path, { orderLimit: 100 + round, role: round % 2 ? 'buyer' : 'approver' }, bearer()),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const now = (await stack.get(path, bearer())).body.data.profile;
      expect(now).toMatchObject({
        first_name: `First${round}`,
        orderLimit: 100 + round,
        role: round % 2 ? 'buyer' : 'approver',
      });
    }
  });

  it('replays the first answer to the same Idempotency-Key', async () => {
    const { path } = await aUser();
    const first = await stack.patch(path, { role: 'approver' }, { ...bearer(), 'Idempotency-Key': 'patch-1' });
    await stack.patch(path, { role: 'buyer' }, bearer());
    const replay = await stack.patch(path, { role: 'approver' }, { ...bearer(), 'Idempotency-Key': 'patch-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await stack.get(path, bearer())).body.data.profile.role).toBe('buyer');
  });
});

describe('deactivating a user', () => {
  const browse = async (url: string, cookie?: string) => {
    const res = await fetch(url.startsWith('http') ? url : `${stack.url}${url}`, {
      redirect: 'manual',
      headers: cookie ? { Cookie: `${COOKIE}=${cookie}` } : {},
    });
    return { status: res.status, setCookies: res.headers.getSetCookie(), text: await res.text() };
  };
  const handshake = (profileId: string) =>
    stack.post('/v1/partner/handshake', { profile_id: profileId }, { 'X-API-Key': partner.apiKey });
  const openSession = async (profileId: string) => {
    const link = (await handshake(profileId)).body.iframe_embed_url as string;
    const redeemed = await browse(link);
    expect(redeemed.status).toBe(303);
    return redeemed.setCookies.map((c) => new RegExp(`^${COOKIE}=([^;]*)`).exec(c)?.[1]).find(Boolean) as string;
  };

  it('ends the live embedded session on its next request, refuses unused links and handshakes, and reactivation restores sign-in', async () => {
    const { path, profile } = await aUser();
    const cookie = await openSession(profile.id);
    const unusedLink = (await handshake(profile.id)).body.iframe_embed_url as string;
    expect((await browse(`/embedded/${partner.partnerId}`, cookie)).status).toBe(200);

    stack.clock.advance(1000);
    const off = await stack.patch(path, { active: false }, bearer());
    expect([off.status, off.body.data.profile.active]).toEqual([200, false]);

    expect((await browse(`/embedded/${partner.partnerId}`, cookie)).status).toBe(401);
    expect((await browse(unusedLink)).status).toBe(401);
    const refused = await handshake(profile.id);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Profile not set up for authentication');

    stack.clock.advance(1000);
    const on = await stack.patch(path, { active: true }, bearer());
    expect(on.body.data.profile.active).toBe(true);
    // The old session and the old link stay dead; a new handshake signs in.
    expect((await browse(`/embedded/${partner.partnerId}`, cookie)).status).toBe(401);
    expect((await browse(unusedLink)).status).toBe(401);
    const fresh = await openSession(profile.id);
    expect((await browse(`/embedded/${partner.partnerId}`, fresh)).status).toBe(200);
  });
});
