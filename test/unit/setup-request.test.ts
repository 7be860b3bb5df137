import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Address } from '../../functions/domain/addresses/address';
import { SetupRequest, type SetupInput } from '../../functions/domain/organizations/setup-request';
import { toValidationIssues, type ValidationIssue } from '../../functions/domain/validation';

type Body = Record<string, any>;

const address = (): Body => ({
  line1: '1 Market St',
  city: 'San Francisco',
  province: 'CA',
  postalCode: '94105',
});

const location = (id: string, extra: Body = {}): Body => ({
  internalShippingLocationId: id,
  name: `Location ${id}`,
  address: address(),
  ...extra,
});

const validBody = (): Body => ({
  internalOrgId: 'org-1',
  organizationName: 'Acme Dental',
  internalUserId: 'user-1',
  user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.example.com' },
});

const fullBody = (): Body => ({
  ...validBody(),
  user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.example.com', phoneNumber: '+1 415 555 0100' },
  userAddress: { ...address(), line2: 'Apt 4' },
  shippingLocations: [
    location('loc-1', {
      nickname: 'HQ',
      isDefault: true,
      contact: { name: 'Front desk', phone: '415-555-0101', email: 'desk@acme.example.com' },
      deliveryInstructions: 'Leave at reception',
    }),
    location('loc-2'),
  ],
  billingAddress: address(),
  organizationEmail: 'billing@acme.example.com',
  organizationPhone: '415-555-0199',
});

function parsed(body: unknown): SetupInput {
  const result = SetupRequest.safeParse(body);
  if (!result.success) throw new Error(JSON.stringify(toValidationIssues(result.error)));
  return result.data;
}

function issuesOf(body: unknown): ValidationIssue[] {
  const result = SetupRequest.safeParse(body);
  if (result.success) throw new Error('expected the body to be rejected');
  return toValidationIssues(result.error);
}

/** Only code and path: the contract's machine-readable part. */
const codesAndPaths = (body: unknown) => issuesOf(body).map(({ code, path }) => ({ code, path }));

/** Sets (or with `undefined`, deletes) the value at a path in a copy of the body. */
function withValue(body: Body, path: string[], value: unknown): Body {
  const copy = structuredClone(body);
  let target: any = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  const last = path[path.length - 1] as string;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

describe('POST /v1/organizations/setup body', () => {
  describe('a valid body', () => {
    it('accepts the minimal body the contract requires', () => {
      expect(parsed(validBody())).toEqual(validBody());
    });

    it('accepts every optional field and returns them normalized', () => {
      const data = parsed(fullBody());
      expect(data.userAddress).toEqual({
        line1: '1 Market St',
        line2: 'Apt 4',
        city: 'San Francisco',
        province: 'California',
        postalCode: '94105',
        country: 'United States',
      });
      expect(data.shippingLocations?.map((l) => [l.internalShippingLocationId, l.isDefault])).toEqual([
        ['loc-1', true],
        ['loc-2', false],
      ]);
      expect(data.shippingLocations?.[0]?.contact).toEqual({
        name: 'Front desk',
        phone: '415-555-0101',
        email: 'desk@acme.example.com',
      });
      expect(data.organizationEmail).toBe('billing@acme.example.com');
    });

    it('trims strings', () => {
      const body = validBody();
      body.internalOrgId = '  org-1 ';
      body.user.email = ' ada@acme.example.com\n';
      body.userAddress = { ...address(), line1: '\t1 Market St  ', postalCode: ' 94105 ' };
      const data = parsed(body);
      expect(data.internalOrgId).toBe('org-1');
      expect(data.user.email).toBe('ada@acme.example.com');
      expect(data.userAddress?.line1).toBe('1 Market St');
      expect(data.userAddress?.postalCode).toBe('94105');
    });

    it('treats blank optional strings as not given', () => {
      const body = validBody();
      body.organizationEmail = '   ';
      body.user.phoneNumber = '';
      body.userAddress = { ...address(), line2: '  ' };
      const data = parsed(body);
      expect(data.organizationEmail).toBeUndefined();
      expect(data.user.phoneNumber).toBeUndefined();
      expect(data.userAddress?.line2).toBeUndefined();
    });

    it('ignores unknown fields, at every level', () => {
      const body = fullBody();
      body.somethingNew = 1;
      body.user.middleName = 'Augusta';
      body.shippingLocations[0].address.county = 'San Francisco';
      const data = parsed(body) as Body;
      expect(data).not.toHaveProperty('somethingNew');
      expect(data.user).not.toHaveProperty('middleName');
      expect(data.shippingLocations[0].address).not.toHaveProperty('county');
    });

    it('defaults isDefault to false', () => {
      const body = { ...validBody(), shippingLocations: [location('a')] };
      expect(parsed(body).shippingLocations?.[0]?.isDefault).toBe(false);
    });

    it('accepts an empty list of shipping locations', () => {
      expect(parsed({ ...validBody(), shippingLocations: [] }).shippingLocations).toEqual([]);
    });

    it('derives output types with normalized fields', () => {
      expectTypeOf<SetupInput['internalOrgId']>().toEqualTypeOf<string>();
      expectTypeOf<NonNullable<SetupInput['shippingLocations']>[number]['isDefault']>().toEqualTypeOf<boolean>();
      expectTypeOf<Address['country']>().toEqualTypeOf<'United States'>();
      expectTypeOf<Address['line2']>().toEqualTypeOf<string | undefined>();
    });
  });

  describe('missing required fields', () => {
    const addressFields = ['line1', 'city', 'province', 'postalCode'];
    const required: string[][] = [
      ['internalOrgId'],
      ['organizationName'],
      ['internalUserId'],
      ['user'],
      ['user', 'firstName'],
      ['user', 'lastName'],
      ['user', 'email'],
      ['shippingLocations', '0', 'internalShippingLocationId'],
      ['shippingLocations', '0', 'name'],
      ['shippingLocations', '0', 'address'],
      ...addressFields.map((field) => ['userAddress', field]),
      ...addressFields.map((field) => ['billingAddress', field]),
      ...addressFields.map((field) => ['shippingLocations', '0', 'address', field]),
    ];

    it.each(required.map((path) => [path.join('.'), path]))('reports %s as REQUIRED', (_label, path) => {
      const body = withValue(fullBody(), path, undefined);
      expect(codesAndPaths(body)).toEqual([{ code: 'REQUIRED', path }]);
    });

    it.each([
      ['internalOrgId', ['internalOrgId'], ''],
      ['organizationName', ['organizationName'], '   '],
      ['user.firstName', ['user', 'firstName'], '\t\n'],
      ['user.email', ['user', 'email'], ' '],
      ['province', ['shippingLocations', '0', 'address', 'province'], ' '],
      ['postalCode', ['billingAddress', 'postalCode'], ''],
    ])('reports a blank %s as REQUIRED', (_label, path, blank) => {
      const body = withValue(fullBody(), path, blank);
      expect(codesAndPaths(body)).toEqual([{ code: 'REQUIRED', path }]);
    });

    it('names the field in the message', () => {
      const [issue] = issuesOf(withValue(validBody(), ['user', 'email'], undefined));
      expect(issue).toEqual({ code: 'REQUIRED', message: 'user.email is required', path: ['user', 'email'] });
    });

    it('reports every problem at once, not only the first', () => {
      expect(codesAndPaths({ user: {} })).toEqual([
        { code: 'REQUIRED', path: ['internalOrgId'] },
        { code: 'REQUIRED', path: ['organizationName'] },
        { code: 'REQUIRED', path: ['internalUserId'] },
        { code: 'REQUIRED', path: ['user', 'firstName'] },
        { code: 'REQUIRED', path: ['user', 'lastName'] },
        { code: 'REQUIRED', path: ['user', 'email'] },
      ]);
    });

    it('reports a missing body as REQUIRED at the root', () => {
      expect(codesAndPaths(undefined)).toEqual([{ code: 'REQUIRED', path: [] }]);
    });

    it('still says REQUIRED when parsed with reportInput', () => {
      const result = SetupRequest.safeParse({ ...validBody(), internalOrgId: undefined }, { reportInput: true });
      expect(result.success).toBe(false);
      if (!result.success) {
        expect(toValidationIssues(result.error).map(({ code, path }) => ({ code, path }))).toEqual([
          { code: 'REQUIRED', path: ['internalOrgId'] },
        ]);
      }
    });
  });

  describe('wrong JSON types', () => {
    it.each([
      [['organizationName'], 42, 'organizationName must be a string'],
      [['internalUserId'], null, 'internalUserId must be a string'],
      [['user'], 'ada', 'user must be an object'],
      [['user'], null, 'user must be an object'],
      [['userAddress'], [], 'userAddress must be an object'],
      [['shippingLocations'], {}, 'shippingLocations must be an array'],
      [['shippingLocations', '0'], 'loc', 'shippingLocations[0] must be an object'],
      [['shippingLocations', '0', 'isDefault'], 'yes', 'shippingLocations[0].isDefault must be true or false'],
      [['shippingLocations', '0', 'contact'], 'desk', 'shippingLocations[0].contact must be an object'],
      [
        ['shippingLocations', '0', 'address', 'postalCode'],
        94105,
        'shippingLocations[0].address.postalCode must be a string',
      ],
      [['organizationEmail'], null, 'organizationEmail must be a string'],
    ])('reports %j = %j as INVALID_TYPE', (path, value, message) => {
      const body = withValue(fullBody(), path, value);
      expect(issuesOf(body)).toEqual([{ code: 'INVALID_TYPE', message, path }]);
    });

    it.each([null, [], 'body', 42, true])('rejects a body of %j as INVALID_TYPE at the root', (body) => {
      expect(codesAndPaths(body)).toEqual([{ code: 'INVALID_TYPE', path: [] }]);
    });
  });

  describe('email addresses', () => {
    it.each([[['user', 'email']], [['organizationEmail']], [['shippingLocations', '0', 'contact', 'email']]])(
      'reports an invalid %j as INVALID_EMAIL',
      (path) => {
        for (const bad of ['ada', 'ada@', '@acme.com', 'ada@acme', 'ada acme@x.com', 'ada@@acme.com']) {
          expect(issuesOf(withValue(fullBody(), path, bad))).toEqual([
            { code: 'INVALID_EMAIL', message: expect.stringContaining('must be a valid email address'), path },
          ]);
        }
      },
    );

    it('words the message after the field', () => {
      expect(issuesOf(withValue(validBody(), ['user', 'email'], 'nope'))).toEqual([
        { code: 'INVALID_EMAIL', message: 'user.email must be a valid email address', path: ['user', 'email'] },
      ]);
    });

    it('accepts 254 characters and rejects 255 as TOO_LONG', () => {
      const email = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
      expect(parsed(withValue(validBody(), ['user', 'email'], email(254))).user.email).toHaveLength(254);
      for (const path of [['user', 'email'], ['organizationEmail'], ['shippingLocations', '0', 'contact', 'email']]) {
        expect(codesAndPaths(withValue(fullBody(), path, email(255)))).toEqual([{ code: 'TOO_LONG', path }]);
      }
    });
  });

  describe('size limits', () => {
    it.each([
      [['internalOrgId']],
      [['organizationName']],
      [['user', 'firstName']],
      [['user', 'phoneNumber']],
      [['organizationPhone']],
      [['userAddress', 'line2']],
      [['billingAddress', 'city']],
      [['shippingLocations', '1', 'nickname']],
      [['shippingLocations', '0', 'deliveryInstructions']],
      [['shippingLocations', '0', 'contact', 'name']],
    ])('accepts 256 characters in %j and rejects 257 as TOO_LONG', (path) => {
      expect(SetupRequest.safeParse(withValue(fullBody(), path, 'x'.repeat(256))).success).toBe(true);
      expect(issuesOf(withValue(fullBody(), path, 'x'.repeat(257)))).toEqual([
        { code: 'TOO_LONG', message: expect.stringContaining('must be at most 256 characters'), path },
      ]);
    });

    it('counts length after trimming', () => {
      const padded = `  ${'x'.repeat(256)}  `;
      expect(parsed(withValue(validBody(), ['organizationName'], padded)).organizationName).toHaveLength(256);
    });

    it('accepts 50 shipping locations and rejects 51 as TOO_MANY_ITEMS', () => {
      const locations = (n: number) => Array.from({ length: n }, (_, i) => location(`loc-${i}`));
      expect(parsed({ ...validBody(), shippingLocations: locations(50) }).shippingLocations).toHaveLength(50);
      expect(issuesOf({ ...validBody(), shippingLocations: locations(51) })).toEqual([
        {
          code: 'TOO_MANY_ITEMS',
          message: 'shippingLocations must have at most 50 items',
          path: ['shippingLocations'],
        },
      ]);
    });
  });

  describe('default shipping location', () => {
    it('accepts one default', () => {
      const body = { ...validBody(), shippingLocations: [location('a'), location('b', { isDefault: true })] };
      expect(parsed(body).shippingLocations?.map((l) => l.isDefault)).toEqual([false, true]);
    });

    it('reports the second default on its isDefault', () => {
      const body = {
        ...validBody(),
        shippingLocations: [location('a', { isDefault: true }), location('b'), location('c', { isDefault: true })],
      };
      expect(issuesOf(body)).toEqual([
        {
          code: 'MULTIPLE_DEFAULT_LOCATIONS',
          message: expect.stringMatching(/^shippingLocations\[2\]\.isDefault .*shippingLocations\[0\]/),
          path: ['shippingLocations', '2', 'isDefault'],
        },
      ]);
    });

    it('reports every default after the first', () => {
      const body = {
        ...validBody(),
        shippingLocations: ['a', 'b', 'c'].map((id) => location(id, { isDefault: true })),
      };
      expect(codesAndPaths(body)).toEqual([
        { code: 'MULTIPLE_DEFAULT_LOCATIONS', path: ['shippingLocations', '1', 'isDefault'] },
        { code: 'MULTIPLE_DEFAULT_LOCATIONS', path: ['shippingLocations', '2', 'isDefault'] },
      ]);
    });

    it('accepts explicit false on several locations', () => {
      const body = { ...validBody(), shippingLocations: ['a', 'b'].map((id) => location(id, { isDefault: false })) };
      expect(SetupRequest.safeParse(body).success).toBe(true);
    });
  });

  describe('duplicate shipping location ids', () => {
    it('reports a repeated internalShippingLocationId on the repeat', () => {
      const body = { ...validBody(), shippingLocations: [location('a'), location('b'), location('a')] };
      expect(issuesOf(body)).toEqual([
        {
          code: 'DUPLICATE_ID',
          message: expect.stringMatching(
            /^shippingLocations\[2\]\.internalShippingLocationId .*shippingLocations\[0\]/,
          ),
          path: ['shippingLocations', '2', 'internalShippingLocationId'],
        },
      ]);
    });

    it('compares ids after trimming, and case-sensitively', () => {
      const trimmed = { ...validBody(), shippingLocations: [location('a'), location(' a ')] };
      expect(codesAndPaths(trimmed)).toEqual([
        { code: 'DUPLICATE_ID', path: ['shippingLocations', '1', 'internalShippingLocationId'] },
      ]);
      const cased = { ...validBody(), shippingLocations: [location('a'), location('A')] };
      expect(SetupRequest.safeParse(cased).success).toBe(true);
    });

    it('reports duplicates and defaults together with the locations’ own problems', () => {
      const body = {
        ...validBody(),
        shippingLocations: [
          location('a', { isDefault: true }),
          7,
          location('a', { isDefault: true, address: { ...address(), postalCode: '9410' } }),
        ],
      };
      expect(codesAndPaths(body)).toEqual([
        { code: 'INVALID_TYPE', path: ['shippingLocations', '1'] },
        { code: 'INVALID_POSTAL_CODE', path: ['shippingLocations', '2', 'address', 'postalCode'] },
        { code: 'MULTIPLE_DEFAULT_LOCATIONS', path: ['shippingLocations', '2', 'isDefault'] },
        { code: 'DUPLICATE_ID', path: ['shippingLocations', '2', 'internalShippingLocationId'] },
      ]);
    });
  });

  describe('address province', () => {
    const withProvince = (province: string) => ({
      ...validBody(),
      userAddress: { ...address(), province },
      billingAddress: { ...address(), province },
      shippingLocations: [location('a', { address: { ...address(), province } })],
    });

    it.each([
      ['ca', 'California'],
      ['Ca', 'California'],
      ['CA', 'California'],
      ['CALIFORNIA', 'California'],
      ['california', 'California'],
      [' California ', 'California'],
      ['dc', 'District of Columbia'],
      ['district of columbia', 'District of Columbia'],
      ['ny', 'New York'],
      ['NEW YORK', 'New York'],
    ])('stores %j as %j in every address', (given, stored) => {
      const data = parsed(withProvince(given));
      expect(data.userAddress?.province).toBe(stored);
      expect(data.billingAddress?.province).toBe(stored);
      expect(data.shippingLocations?.[0]?.address.province).toBe(stored);
    });

    it.each(['ZZ', 'Cali', 'Ontario', 'PR', 'Puerto Rico', 'constructor'])(
      'reports %j as INVALID_US_STATE',
      (province) => {
        expect(codesAndPaths(withProvince(province))).toEqual([
          { code: 'INVALID_US_STATE', path: ['userAddress', 'province'] },
          { code: 'INVALID_US_STATE', path: ['shippingLocations', '0', 'address', 'province'] },
          { code: 'INVALID_US_STATE', path: ['billingAddress', 'province'] },
        ]);
      },
    );

    it('explains what a valid province is', () => {
      const [issue] = issuesOf(withValue(validBody(), ['userAddress'], { ...address(), province: 'Narnia' }));
      expect(issue?.message).toMatch(/^userAddress\.province must be a US state/);
    });
  });

  describe('address postal code', () => {
    it.each(['94105', '02134', '94105-1234'])('accepts %j', (postalCode) => {
      const data = parsed({ ...validBody(), billingAddress: { ...address(), postalCode } });
      expect(data.billingAddress?.postalCode).toBe(postalCode);
    });

    it.each(['9410', '941051', '94105-123', '94105-12345', '94105 1234', 'ABCDE', '9410a', '941051234', 'SW1A 1AA'])(
      'reports %j as INVALID_POSTAL_CODE',
      (postalCode) => {
        const body = { ...validBody(), shippingLocations: [location('a', { address: { ...address(), postalCode } })] };
        expect(issuesOf(body)).toEqual([
          {
            code: 'INVALID_POSTAL_CODE',
            message: 'shippingLocations[0].address.postalCode must be a US ZIP code: 12345 or 12345-6789',
            path: ['shippingLocations', '0', 'address', 'postalCode'],
          },
        ]);
      },
    );
  });

  describe('address country', () => {
    it('defaults to United States', () => {
      expect(parsed({ ...validBody(), userAddress: address() }).userAddress?.country).toBe('United States');
    });

    it.each([
      'United States',
      'united states',
      'UNITED STATES',
      'US',
      'us',
      'Us',
      'USA',
      'usa',
      'United States of America',
      'united states of america',
      ' UNITED  STATES OF AMERICA ',
      '',
    ])('stores %j as United States', (country) => {
      const body = {
        ...validBody(),
        userAddress: { ...address(), country },
        shippingLocations: [location('a', { address: { ...address(), country } })],
      };
      const data = parsed(body);
      expect(data.userAddress?.country).toBe('United States');
      expect(data.shippingLocations?.[0]?.address.country).toBe('United States');
    });

    it.each(['Canada', 'CA', 'Mexico', 'UK', 'America', 'U.S.A.', 'United Kingdom'])(
      'reports %j as UNSUPPORTED_COUNTRY',
      (country) => {
        const body = { ...validBody(), billingAddress: { ...address(), country } };
        expect(issuesOf(body)).toEqual([
          {
            code: 'UNSUPPORTED_COUNTRY',
            message: expect.stringContaining('Only the United States is supported'),
            path: ['billingAddress', 'country'],
          },
        ]);
      },
    );

    it('reports a non-string country as INVALID_TYPE', () => {
      const body = { ...validBody(), billingAddress: { ...address(), country: 1 } };
      expect(codesAndPaths(body)).toEqual([{ code: 'INVALID_TYPE', path: ['billingAddress', 'country'] }]);
    });
  });

  describe('issue shape', () => {
    it('gives every issue a SCREAMING_SNAKE code, a message naming the field and a path of strings', () => {
      const body = withValue(fullBody(), ['shippingLocations', '1', 'address', 'province'], 'XX');
      body.user.email = 'nope';
      body.organizationName = 7;
      for (const issue of issuesOf(body)) {
        expect(issue.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expect(issue.path.every((key) => typeof key === 'string')).toBe(true);
        expect(issue.message.length).toBeGreaterThan(0);
      }
      expect(codesAndPaths(body)).toEqual([
        { code: 'INVALID_TYPE', path: ['organizationName'] },
        { code: 'INVALID_EMAIL', path: ['user', 'email'] },
        { code: 'INVALID_US_STATE', path: ['shippingLocations', '1', 'address', 'province'] },
      ]);
    });
  });

  describe('arbitrary input (property)', () => {
    const expectWellFormed = (input: unknown) => {
      const result = SetupRequest.safeParse(input);
      if (result.success) return;
      const issues = toValidationIssues(result.error);
      expect(issues.length).toBeGreaterThan(0);
      for (const issue of issues) {
        expect(Array.isArray(issue.path)).toBe(true);
        expect(issue.path.every((key) => typeof key === 'string')).toBe(true);
        expect(issue.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expect(typeof issue.message).toBe('string');
      }
    };

    it('never throws for any JSON value, and maps failures to string paths', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (input) => expectWellFormed(input)),
        { numRuns: 500 },
      );
    });

    it('never throws for bodies shaped like the contract with arbitrary values', () => {
      const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.string(), fc.boolean());
      const addressLike = fc.record(
        {
          line1: anyValue,
          line2: anyValue,
          city: anyValue,
          province: fc.oneof(fc.constantFrom('ca', 'DC', 'Texas', 'XX', '__proto__'), anyValue),
          postalCode: fc.oneof(fc.constantFrom('94105', '94105-1234', '9410'), anyValue),
          country: fc.oneof(fc.constantFrom('US', 'usa', 'Canada'), anyValue),
        },
        { requiredKeys: [] },
      );
      const locationLike = fc.record(
        {
          internalShippingLocationId: fc.oneof(fc.constantFrom('a', 'b', ' a'), anyValue),
          name: anyValue,
          nickname: anyValue,
          address: fc.oneof(addressLike, anyValue),
          contact: fc.oneof(
            fc.record({ name: anyValue, phone: anyValue, email: anyValue }, { requiredKeys: [] }),
            anyValue,
          ),
          isDefault: fc.oneof(fc.boolean(), anyValue),
          deliveryInstructions: anyValue,
        },
        { requiredKeys: [] },
      );
      const bodyLike = fc.record(
        {
          internalOrgId: anyValue,
          organizationName: anyValue,
          internalUserId: anyValue,
          user: fc.oneof(
            fc.record(
              { firstName: anyValue, lastName: anyValue, email: anyValue, phoneNumber: anyValue },
              { requiredKeys: [] },
            ),
            anyValue,
          ),
          userAddress: fc.oneof(addressLike, anyValue),
          shippingLocations: fc.oneof(fc.array(fc.oneof(locationLike, anyValue), { maxLength: 8 }), anyValue),
          billingAddress: fc.oneof(addressLike, anyValue),
          organizationEmail: anyValue,
          organizationPhone: anyValue,
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(bodyLike, (input) => expectWellFormed(input)),
        { numRuns: 500 },
      );
    });
  });
});

describe('the setup sample in docs/setup.md', () => {
  it('is a body setup takes, with the billing fields, sent to $BASE with $KEY', async () => {
    const doc = await readFile(new URL('../../docs/setup.md', import.meta.url), 'utf8');
    const sample =
      /curl -s -X POST "\$BASE\/v1\/organizations\/setup" \\\n\s+-H "Authorization: Bearer \$KEY"[^']*-d '([^']+)'/.exec(
        doc,
      );
    const body = JSON.parse(sample?.[1] ?? 'null') as Body;
    expect(SetupRequest.safeParse(body).success).toBe(true);
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['paymentTerms', 'billingEmail', 'taxExempt']));
  });
});
