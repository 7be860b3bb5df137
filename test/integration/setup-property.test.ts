import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupResponseBody } from '../../functions/http/setup-response';
import { startTestStack, type TestStack } from '../support/test-stack';

const SETUP = '/v1/organizations/setup';

let stack: TestStack;
let apiKey: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ apiKey } = await stack.createPartner());
});
afterAll(() => stack.close());

const anyJson = fc.jsonValue({ maxDepth: 2 });
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', '   ', 'x'.repeat(257), 'ada@acme.example.com', '__proto__', 'constructor', 'lone \ud800'),
);
/** Mostly the right type, sometimes any JSON, sometimes absent. */
const field = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: fc.constant(undefined) });

const address = fc.record({
  line1: field(text),
  line2: field(text),
  city: field(text),
  province: field(fc.oneof(text, fc.constantFrom('ca', 'Texas', 'NEW YORK', 'dc', 'PR', 'Ontario'))),
  postalCode: field(fc.constantFrom('78701', '78701-1234', '7870', 'abcde', '')),
  country: field(fc.constantFrom('US', 'usa', 'United States of America', 'Canada', '')),
});

const location = fc.record({
  internalShippingLocationId: field(fc.oneof(text, fc.constantFrom('loc-1', 'loc-2'))),
  name: field(text),
  nickname: field(text),
  address: field(address),
  contact: field(fc.record({ name: field(text), phone: field(text), email: field(text) })),
  isDefault: field(fc.boolean()),
  deliveryInstructions: field(text),
});

/** Shaped like the contract's request, with arbitrary values: reaches validation's every corner and the stores. */
const contractShaped = fc.record({
  internalOrgId: field(fc.oneof(text, fc.constantFrom('org-a', 'org-b'))),
  organizationName: field(text),
  internalUserId: field(fc.oneof(text, fc.constantFrom('u-1', 'u-2'))),
  user: field(fc.record({ firstName: field(text), lastName: field(text), email: field(text), phoneNumber: field(text) })),
  userAddress: field(address),
  shippingLocations: field(fc.array(location, { maxLength: 3 })),
  billingAddress: field(address),
  organizationEmail: field(text),
  organizationPhone: field(text),
});

/** Every field of the right type and format, any Unicode content: what reaches Stripe and DynamoDB. */
const content = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  // Characters that trouble encoders and stores, far likelier than among all code points.
  fc.string({ unit: fc.constantFrom('a', ' ', 'é', '😀', '\u0000', '"', '\\', '\ud800', '\udc00', '#'), minLength: 1, maxLength: 12 }),
);
const validAddress = fc.record({
  line1: content,
  city: content,
  province: fc.constantFrom('ca', 'Texas', 'new york', 'DC'),
  postalCode: fc.constantFrom('78701', '10001-0001'),
});
const validShaped = fc.record({
  internalOrgId: content,
  organizationName: content,
  internalUserId: content,
  user: fc.record({ firstName: content, lastName: content, email: fc.constantFrom('ada@acme.example.com', 'x.y+z@b.co'), phoneNumber: content }),
  userAddress: validAddress,
  shippingLocations: fc.uniqueArray(
    fc.record({ internalShippingLocationId: content, name: content, nickname: content, address: validAddress, deliveryInstructions: content }),
    { maxLength: 3, selector: (l) => l.internalShippingLocationId.trim() },
  ),
  billingAddress: validAddress,
  organizationEmail: fc.constant('ap@acme.example.com'),
  organizationPhone: content,
});

const anyObject = fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 6 });

async function expectNever500(body: unknown): Promise<void> {
  // A minute per request keeps the partner under its 100-per-minute limit.
  stack.clock.advance(60_000);
  const res = await stack.post(SETUP, body, { Authorization: `Bearer ${apiKey}` });
  expect([200, 400, 409], `status ${res.status} for ${JSON.stringify(body)}: ${res.text}`).toContain(res.status);
  if (res.status === 200) SetupResponseBody.parse(res.body);
  if (res.status === 400) {
    expect(res.body).toMatchObject({ error: 'Validation Error', code: 'VALIDATION_ERROR' });
    for (const issue of res.body.details) {
      expect(issue).toEqual({ code: expect.any(String), message: expect.any(String), path: expect.any(Array) });
      expect(issue.path.every((segment: unknown) => typeof segment === 'string')).toBe(true);
    }
  }
}

describe('setup never answers 500 for anything a partner can send (property, over HTTP)', () => {
  it('holds for arbitrary JSON objects', async () => {
    await fc.assert(fc.asyncProperty(anyObject, expectNever500), { numRuns: 20 });
  });

  it('holds for contract-shaped bodies with arbitrary values', async () => {
    await fc.assert(fc.asyncProperty(contractShaped, expectNever500), { numRuns: 20 });
  });

  it('holds for well-typed bodies with arbitrary Unicode content, which reach Stripe and DynamoDB', async () => {
    await fc.assert(fc.asyncProperty(validShaped, expectNever500), { numRuns: 20 });
  });
});
