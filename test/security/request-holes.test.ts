import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../functions/domain/partners/partner';
import { isPartnerRoute, type Route, ROUTES, routeKey } from '../../functions/routes';
import { MAX_LOCATIONS_PER_ORGANIZATION } from '../../functions/domain/organizations/organization-setup';
import { aLocation, SetupRequestBuilder } from '../support/setup-request-builder';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';

let stack: TestStack;
let apiKey: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ apiKey } = await stack.createPartner());
});
afterAll(() => stack.close());

const unauthorizedBody = { error: 'Unauthorized', message: expect.any(String), code: 'UNAUTHORIZED', details: [] };

describe('one credential, once', () => {
  it('answers 401 to setup carrying both Authorization and X-API-Key, though the Bearer key is valid', async () => {
    const res = await stack.post(SETUP, new SetupRequestBuilder().build(), {
      Authorization: `Bearer ${apiKey}`,
      'X-API-Key': apiKey,
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorizedBody);
  });

  it('answers 401 to the handshake carrying both headers, though X-API-Key is valid', async () => {
    const res = await stack.post(
      HANDSHAKE,
      { internal_user_id: 'u-1' },
      { Authorization: `Bearer ${apiKey}`, 'X-API-Key': apiKey },
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorizedBody);
  });

  it('answers 401 to two Authorization headers, as API Gateway (which joins them with a comma) would see them', async () => {
    const headers = new Headers({ 'Content-Type': 'application/json' });
    headers.append('Authorization', `Bearer ${apiKey}`);
    headers.append('Authorization', `Bearer ${apiKey}`);
    const res = await fetch(`${stack.url}${SETUP}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(new SetupRequestBuilder().build()),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorizedBody);
  });

  it('names the failure by its class in the request log', async () => {
    const res = await stack.post(SETUP, {}, { Authorization: `Bearer ${apiKey}`, 'X-API-Key': apiKey });
    const line = stack.logs.find((l) => l.requestId === res.headers.get('request-id'));
    expect(line).toMatchObject({ status: 401, failure: 'Unauthorized' });
  });
});

describe('JSON nesting', () => {
  const deep = (levels: number) => `{"organizationName":${'['.repeat(levels)}${']'.repeat(levels)}}`;

  it('answers 400 NESTING_TOO_DEEP on setup with an Idempotency-Key, before anything walks the body (was a 500)', async () => {
    const res = await stack.post(SETUP, deep(3000), { Authorization: `Bearer ${apiKey}`, 'Idempotency-Key': 'deep-1' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ code: 'NESTING_TOO_DEEP', path: [] }] });
  });

  it('answers 400 in the handshake shape', async () => {
    const res = await stack.post(HANDSHAKE, deep(40), { 'X-API-Key': apiKey });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request body',
      details: [expect.objectContaining({ code: 'NESTING_TOO_DEEP' })],
    });
  });

  it('does not count brackets inside strings', async () => {
    const body = new SetupRequestBuilder()
      .with({ organizationName: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' })
      .build();
    const res = await stack.post(SETUP, body, { Authorization: `Bearer ${apiKey}` });
    expect(res.status).toBe(200);
  });
});

describe('control and bidi-override characters', () => {
  it.each([
    ['NUL', 'Acme\u0000Dental'],
    ['ESC', 'Acme\u001b[31mDental'],
    ['a newline', 'Acme\nDental'],
    ['DEL', 'Acme\u007fDental'],
    ['a C1 control', 'Acme\u0085Dental'],
    ['RIGHT-TO-LEFT OVERRIDE', 'Acme\u202eDental'],
    ['FIRST STRONG ISOLATE', 'Acme\u2068Dental'],
  ])('refuses %s in a name with 400 CONTROL_CHARACTER and its path', async (_name, organizationName) => {
    const res = await stack.post(SETUP, new SetupRequestBuilder().with({ organizationName }).build(), {
      Authorization: `Bearer ${apiKey}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { code: 'CONTROL_CHARACTER', message: expect.stringContaining('organizationName'), path: ['organizationName'] },
    ]);
  });

  it('refuses them in nested and handshake fields too', async () => {
    const body = new SetupRequestBuilder().withLocations(aLocation('loc\u202e1', { name: 'Main' })).build();
    const res = await stack.post(SETUP, body, { Authorization: `Bearer ${apiKey}` });
    expect(res.body.details).toEqual([
      expect.objectContaining({
        code: 'CONTROL_CHARACTER',
        path: ['shippingLocations', '0', 'internalShippingLocationId'],
      }),
    ]);
    const handshake = await stack.post(HANDSHAKE, { internal_user_id: 'u\u00001' }, { 'X-API-Key': apiKey });
    expect(handshake.status).toBe(400);
    expect(handshake.body.details).toEqual([
      expect.objectContaining({ code: 'CONTROL_CHARACTER', path: ['internal_user_id'] }),
    ]);
  });
});

describe('profile_id in any case', () => {
  it('finds the profile whatever the case of its UUID', async () => {
    const setup = await stack.post(SETUP, new SetupRequestBuilder().build(), { Authorization: `Bearer ${apiKey}` });
    expect(setup.status).toBe(200);
    const profileId = String(setup.body.data.profile.id);
    const res = await stack.post(HANDSHAKE, { profile_id: profileId.toUpperCase() }, { 'X-API-Key': apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, profile: { id: profileId } });
  });
});

describe('locations per organization', () => {
  it(`refuses a setup that would take an organization past ${MAX_LOCATIONS_PER_ORGANIZATION} locations, and stores nothing of it`, async () => {
    const { apiKey: key } = await stack.createPartner();
    const internalOrgId = `org-many-${Date.now()}`;
    const batch = (start: number) => Array.from({ length: 50 }, (_, i) => aLocation(`loc-${start + i}`));
    for (let user = 0; user < MAX_LOCATIONS_PER_ORGANIZATION / 50; user++) {
      const body = new SetupRequestBuilder()
        .forOrg(internalOrgId)
        .forUser(`user-${user}`)
        .withLocations(...batch(user * 50))
        .build();
      expect((await stack.post(SETUP, body, { Authorization: `Bearer ${key}` })).status).toBe(200);
    }
    const over = new SetupRequestBuilder()
      .forOrg(internalOrgId)
      .forUser('user-over')
      .withLocations(aLocation('loc-one-more'))
      .build();
    const res = await stack.post(SETUP, over, { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { code: 'TOO_MANY_ITEMS', message: expect.stringContaining('201'), path: ['shippingLocations'] },
    ]);
    // A known location is no new one: the same user-over without new locations joins.
    const known = new SetupRequestBuilder()
      .forOrg(internalOrgId)
      .forUser('user-over')
      .withLocations(aLocation('loc-0'))
      .build();
    const joined = await stack.post(SETUP, known, { Authorization: `Bearer ${key}` });
    expect(joined.status).toBe(200);
    expect(joined.body.data.shippingLocations).toHaveLength(MAX_LOCATIONS_PER_ORGANIZATION);
  }, 60_000);
});

describe('a key twice in one JSON object', () => {
  // Stripe's signed route reads the bytes Stripe signed, not a partner's JSON.
  const bodyRoutes = (ROUTES as readonly Route[]).filter(isPartnerRoute).filter((route) => route.body !== 'ignored');

  it.each(bodyRoutes.map((route) => [routeKey(route), route] as const))(
    '%s answers 400 DUPLICATE_KEY in its error shape, whatever the key',
    async (_, route) => {
      stack.clock.advance(60_000);
      const { apiKey: key } = await stack.createPartner({ scopes: [...SCOPES] });
      // Ids that pass their path rules, so the body is what is refused.
      const path = route.path.replace(/\{[^}]+\}/g, (name) =>
        name.startsWith('{internal')
          ? 'org-1'
          : name === '{invoice_id}'
            ? `inv_${'4f84fe3d'.repeat(4)}`
            : '4f84fe3d-34b3-4b20-825a-e2c33467164c',
      );
      const auth: Record<string, string> =
        route.credential === 'x-api-key' ? { 'X-API-Key': key } : { Authorization: `Bearer ${key}` };
      for (const body of [
        '{"role":"buyer","role":"approver"}',
        '{"a":{"b":1,"\\u0062":2}}',
        '{"x":[{"k":1},{"k":2}],"y":{"k":[1,{"k":3,"k":4}]}}',
      ]) {
        const res = await send(route.method, path, body, auth);
        expect(res.status, body).toBe(400);
        expect(JSON.stringify(res.body), body).toContain('DUPLICATE_KEY');
      }
    },
  );

  it('still takes the same key in sibling and nested objects, and a key spelled like one inside a string', async () => {
    const res = await send('POST', '/v1/partner/handshake', '{"internal_user_id":"u-x","x":{"internal_user_id":1}}', {
      'X-API-Key': apiKey,
    });
    expect(JSON.stringify(res.body)).not.toContain('DUPLICATE_KEY');
    const setup = await stack.post(SETUP, new SetupRequestBuilder().with({ organizationName: '"a":1,"a":2' }).build(), {
      Authorization: `Bearer ${apiKey}`,
    });
    expect(setup.status).toBe(200);
  });
});

async function send(method: string, path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown };
}
