/**
 * Fuzzing over HTTP, both API endpoints and the embed host: arbitrary JSON bodies,
 * mutated valid bodies, raw non-JSON bodies and arbitrary header values. Nothing a caller
 * sends gives a 500 or stops the server, and nothing invalid is stored: afterwards every
 * item in the organizations and identity-users tables parses as the model (full state
 * names, "United States", trimmed required fields, links intact).
 *
 * test/integration/setup-property.test.ts fuzzes setup bodies (arbitrary objects,
 * contract-shaped and well-typed Unicode ones); this adds the handshake, mutations of a
 * complete valid body (including on existing organizations), headers, raw bodies, the
 * embed host and the stored-data check.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { checkStoredModel } from '../support/stored-model';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';
const HANDSHAKE = '/v1/partner/handshake';
const RUNS = 25;

let stack: TestStack;
let partner: { partnerId: PartnerId; apiKey: string };
let other: { partnerId: PartnerId; apiKey: string };
/** Real identifiers to aim at: this partner's and another partner's profiles. */
const known = {
  profileIds: [] as string[],
  userIds: [] as string[],
  orgIds: [] as string[],
  foreignProfileIds: [] as string[],
};
const statuses = new Map<string, number>();

beforeAll(async () => {
  stack = await startTestStack();
  partner = await stack.createPartner();
  other = await stack.createPartner();
  for (const [who, org] of [
    [partner, 'fuzz-a'],
    [partner, 'fuzz-b'],
    [other, 'fuzz-a'],
  ] as const) {
    const res = await stack.post(SETUP, validBody(org, `seed-${randomUUID().slice(0, 4)}`), {
      Authorization: `Bearer ${who.apiKey}`,
    });
    expect(res.status).toBe(200);
    if (who === partner) {
      known.profileIds.push(res.body.data.profile.id);
      known.userIds.push(res.body.data.profile.internal_user_id);
      known.orgIds.push(org);
    } else known.foreignProfileIds.push(res.body.data.profile.id);
  }
});
afterAll(() => stack.close());

function validBody(internalOrgId: string, internalUserId: string): Record<string, any> {
  return {
    internalOrgId,
    organizationName: 'Acme Dental',
    internalUserId,
    user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.example.com', phoneNumber: '+1 512 555 0100' },
    userAddress: { line1: '1 Home Rd', city: 'Austin', province: 'tx', postalCode: '78701' },
    billingAddress: {
      line1: '1 Billing Way',
      line2: 'Suite 2',
      city: 'Austin',
      province: 'Texas',
      postalCode: '78701-1234',
      country: 'USA',
    },
    organizationEmail: 'ap@acme.example.com',
    organizationPhone: '512-555-0199',
    shippingLocations: [
      {
        internalShippingLocationId: 'loc-1',
        name: 'Main office',
        nickname: 'HQ',
        isDefault: true,
        address: { line1: '1 Main St', city: 'Austin', province: 'TX', postalCode: '78701', country: 'us' },
        contact: { name: 'Front desk', phone: '512-555-0101', email: 'desk@acme.example.com' },
        deliveryInstructions: 'Leave at reception',
      },
      {
        internalShippingLocationId: 'loc-2',
        name: 'Annex',
        address: { line1: '2 Side St', city: 'Dallas', province: 'new york', postalCode: '10001' },
      },
    ],
  };
}

/** One request; a minute passes before each, so the per-partner limits never decide the outcome. */
async function send(
  label: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<TestResponse | undefined> {
  stack.clock.advance(60_000);
  let res: TestResponse;
  try {
    res = await stack.post(path, body, headers);
  } catch (error) {
    // fetch refuses some header values outright: nothing reached the service.
    if (error instanceof TypeError) return undefined;
    throw error;
  }
  statuses.set(`${label} ${res.status}`, (statuses.get(`${label} ${res.status}`) ?? 0) + 1);
  expect(
    res.status,
    `${label}: ${res.status} for ${JSON.stringify(body)?.slice(0, 500)} ${JSON.stringify(headers)}: ${res.text.slice(0, 300)}`,
  ).not.toBe(500);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get('request-id')).toBeTruthy();
  expect(typeof res.body === 'object' && res.body !== null, res.text).toBe(true);
  return res;
}

const setupAs = (body: unknown, headers: Record<string, string> = {}) =>
  send('setup', SETUP, body, { Authorization: `Bearer ${partner.apiKey}`, ...headers });

async function handshakeAs(body: unknown, label = 'handshake') {
  const res = await send(label, HANDSHAKE, body, { 'X-API-Key': partner.apiKey });
  if (res?.status === 200) {
    expect(res.body.session_key).toMatch(/^[0-9a-f]{64}$/);
    // Only ever one of the partner's own profiles (the setup fuzzing may have added some).
    expect(known.foreignProfileIds).not.toContain(res.body.profile.id);
    expect((await stack.deps.organizations.getProfile(res.body.profile.id))?.partnerId).toBe(partner.partnerId);
  }
  if (res && res.status >= 400) expect(typeof res.body.error).toBe('string');
  return res;
}

// ---- arbitraries ----

const nasty = fc.constantFrom<unknown>(
  '',
  '   ',
  'x'.repeat(257),
  'x'.repeat(5000),
  '\u0000',
  '\ud800',
  '😀',
  'TX',
  ' tx ',
  'PR',
  'Puerto Rico',
  'Ontario',
  'united states of america',
  'Canada',
  '12345-67890',
  '7870',
  -1,
  0,
  1e308,
  true,
  false,
  null,
  [],
  {},
  [null],
  JSON.parse('{"__proto__":{"polluted":true}}'),
  'constructor',
  '__proto__',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$gt":""}',
  'ORG#x#y',
  '#ORG',
);
const anyJson = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: nasty },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
);

/** Every path to a value in a JSON document. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((item, i) => pathsOf(item, [...prefix, i]))];
  if (value && typeof value === 'object')
    return [prefix, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
  return [prefix];
}

interface Mutation {
  readonly pick: number;
  readonly op: 'delete' | 'replace' | 'insert' | 'retype' | 'duplicate';
  readonly value: unknown;
  readonly key: string;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom('delete', 'replace', 'insert', 'retype', 'duplicate'),
  value: anyJson,
  key: fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.constantFrom('__proto__', 'constructor', 'isDefault', 'province', 'internalOrgId'),
  ),
});

function mutate(body: Record<string, any>, mutations: readonly Mutation[]): unknown {
  let doc: any = structuredClone(body);
  for (const m of mutations) {
    const paths = pathsOf(doc);
    const path = paths[m.pick % paths.length] as (string | number)[];
    if (path.length === 0) {
      if (m.op === 'replace') doc = m.value;
      continue;
    }
    const parent = path.slice(0, -1).reduce((node: any, key) => node?.[key], doc);
    const last = path[path.length - 1] as string | number;
    if (parent === null || typeof parent !== 'object') continue;
    switch (m.op) {
      case 'delete':
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
        break;
      case 'replace':
        Object.defineProperty(parent, last, { value: m.value, enumerable: true, writable: true, configurable: true });
        break;
      case 'insert':
        if (parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last])) {
          Object.defineProperty(parent[last], m.key, {
            value: m.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        break;
      case 'retype':
        parent[last] = typeof parent[last] === 'string' ? Number(parent[last]) || [parent[last]] : String(parent[last]);
        break;
      case 'duplicate':
        if (Array.isArray(parent)) parent.push(structuredClone(parent[Number(last)]));
        break;
    }
  }
  return doc;
}

const mutatedSetupBody = fc
  .record({
    org: fc.oneof(
      fc.constantFrom('fuzz-a', 'fuzz-b'),
      fc.uuid().map((u) => `fuzz-${u.slice(0, 8)}`),
    ),
    user: fc.oneof(
      fc.constantFrom('seed', 'u-1'),
      fc.uuid().map((u) => `u-${u.slice(0, 8)}`),
    ),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
  })
  .map(({ org, user, mutations }) => mutate(validBody(org, user), mutations));

/** Mostly a real identifier of the right kind (this partner's or another's), sometimes anything. */
const aimedAt = (...real: string[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: anyJson });
const handshakeShaped = () => {
  const profileId = aimedAt(...known.profileIds, ...known.foreignProfileIds, randomUUID());
  const userId = aimedAt(...known.userIds, 'nobody');
  const orgId = aimedAt(...known.orgIds, 'fuzz-a', 'unknown-org');
  return fc.oneof(
    fc.record({ profile_id: profileId, internal_org_id: orgId }, { requiredKeys: ['profile_id'] }),
    fc.record({ internal_user_id: userId, internal_org_id: orgId }, { requiredKeys: ['internal_user_id'] }),
    fc.record(
      { internal_user_id: userId, profile_id: profileId, internal_org_id: orgId, extra: anyJson },
      { requiredKeys: [] },
    ),
  );
};

const headerChar = fc
  .oneof(
    { weight: 10, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));
const headerValue = fc.string({ unit: headerChar, maxLength: 120 });
const headerName = fc
  .stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,24}$/)
  .filter(
    (name) =>
      ![
        'host',
        'content-length',
        'transfer-encoding',
        'connection',
        'keep-alive',
        'upgrade',
        'expect',
        'te',
        'trailer',
      ].includes(name.toLowerCase()),
  );
/** Auth-ish values: junk, the real key wrapped in junk, or the real key in odd shapes. */
const credential = () =>
  fc.oneof(
    headerValue,
    fc.tuple(headerValue, headerValue).map(([a, b]) => `${a}${partner.apiKey}${b}`),
    fc.constantFrom(
      `Bearer ${partner.apiKey}`,
      partner.apiKey,
      `Bearer ${other.apiKey}`,
      `Bearer  ${partner.apiKey.toUpperCase()}`,
      `Bearer ${partner.apiKey},${partner.apiKey}`,
    ),
  );
/** The endpoint's valid headers with one to three of them (or an extra one) replaced by fuzz. */
const headers = (valid: () => Record<string, string>) =>
  fc
    .array(
      fc.oneof(
        credential().map((v) => ['Authorization', v] as const),
        credential().map((v) => ['X-API-Key', v] as const),
        fc
          .oneof(
            headerValue,
            fc.constantFrom(
              'application/json; charset=utf-8',
              'APPLICATION/JSON',
              'text/plain',
              'application/jsonx',
              'application/json, text/html',
            ),
          )
          .map((v) => ['Content-Type', v] as const),
        fc.oneof(headerValue, fc.constant('x'.repeat(300))).map((v) => ['Idempotency-Key', v] as const),
        fc.tuple(headerName, headerValue),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((overrides) => ({ ...valid(), ...Object.fromEntries(overrides) }) as Record<string, string>);

const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v).slice(0, -1)), // truncated JSON
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '"x"',
    '{"a":1,"a":2}',
    '{"__proto__":{"internalOrgId":"x"}}',
    '\ufeff{}',
    '{'.repeat(5000),
    `[${'['.repeat(3000)}`,
  ),
);

// ---- properties ----

describe('fuzzing the API over HTTP: never a 500, never garbage stored', () => {
  it('setup: mutated complete bodies, on new and existing organizations', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedSetupBody, async (body) => void (await setupAs(body))),
      { numRuns: RUNS },
    );
  });

  it('handshake: arbitrary JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(anyJson, async (body) => void (await handshakeAs(body))),
      { numRuns: RUNS },
    );
  });

  it("handshake: contract-shaped bodies aimed at real identifiers, the partner's own and another partner's", async () => {
    // A 200 only ever names one of the partner's own profiles (handshakeAs checks).
    await fc.assert(
      fc.asyncProperty(handshakeShaped(), async (body) => void (await handshakeAs(body, 'handshake shaped'))),
      { numRuns: RUNS },
    );
  });

  it('both endpoints: arbitrary header values and names', async () => {
    await fc.assert(
      fc.asyncProperty(
        headers(() => ({ Authorization: `Bearer ${partner.apiKey}`, 'Content-Type': 'application/json' })),
        headers(() => ({ 'X-API-Key': partner.apiKey, 'Content-Type': 'application/json' })),
        fc.boolean(),
        async (setupHeaders, handshakeHeaders, toSetup) => {
          if (toSetup)
            await send('setup+headers', SETUP, validBody('fuzz-a', `h-${randomUUID().slice(0, 8)}`), setupHeaders);
          else await send('handshake+headers', HANDSHAKE, { profile_id: known.profileIds[0] }, handshakeHeaders);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('both endpoints: raw bodies that are not (quite) JSON', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, fc.boolean(), async (body, toSetup) => {
        if (toSetup) await setupAs(body);
        else await handshakeAs(body);
      }),
      { numRuns: RUNS },
    );
  });

  it('the embed host: arbitrary partner ids, session keys and cookies', async () => {
    const segment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom(partner.partnerId, other.partnerId, '..', '%', ''),
    );
    const cookieValue = fc.string({
      unit: fc
        .integer({ min: 0x21, max: 0x7e })
        .filter((c) => c !== 0x3b && c !== 0x2c)
        .map((c) => String.fromCharCode(c)),
      maxLength: 80,
    });
    await fc.assert(
      fc.asyncProperty(
        segment,
        fc.option(fc.string({ unit: 'grapheme', maxLength: 80 })),
        fc.option(cookieValue),
        fc.boolean(),
        async (id, key, cookie, logout) => {
          const path = `/embedded/${encodeURIComponent(id)}${logout ? '/logout' : ''}${key === null ? '' : `?session_key=${encodeURIComponent(key)}`}`;
          const res = await fetch(`${stack.url}${path}`, {
            method: logout ? 'POST' : 'GET',
            redirect: 'manual',
            headers: cookie === null ? {} : { Cookie: `__Host-embed_session=${cookie}` },
          });
          await res.text();
          statuses.set(`embed ${res.status}`, (statuses.get(`embed ${res.status}`) ?? 0) + 1);
          expect(res.status, path).toBeLessThan(500);
          if (res.status !== 404) expect(res.headers.get('content-security-policy'), path).toContain('frame-ancestors');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('left the server up and every stored item valid', async () => {
    expect((await fetch(`${stack.url}/health`)).status).toBe(200);
    const { problems, counts } = await checkStoredModel(stack);
    expect(problems).toEqual([]);
    expect(counts.organization).toBeGreaterThanOrEqual(3);
    console.log(
      `[fuzz] statuses ${[...statuses]
        .sort()
        .map(([k, v]) => `${k}×${v}`)
        .join(', ')}; stored ${JSON.stringify(counts)}`,
    );
  });
});
