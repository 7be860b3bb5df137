/**
 * Where third-party checkers (a Prism proxy, generated clients) read docs/openapi.json and
 * the server disagreed: time zones, money and path parameters. Each test holds what a
 * standard validator (ajv, draft 2020-12) accepts against the document to what the
 * server's own schemas accept.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PARTNER_ID_LENGTH } from '../../functions/domain/documented-rules';
import { parseTransition } from '../../functions/domain/orders/transition-input';
import { OrderLimitInput } from '../../functions/domain/organizations/profile-fields';
import { SetupRequest } from '../../functions/domain/organizations/setup-request';
import { IANA_TIME_ZONE_NAMES } from '../../functions/domain/time-zone-names';
import { API_DOCUMENT, DOCUMENTED_ROUTES, type JsonObject, schemaProblems } from '../support/api-document';

const schemas: JsonObject = API_DOCUMENT.components.schemas;

describe('organization timeZone: the server takes exactly the names the document lists', () => {
  const documented = schemas.SetupRequest.properties.timeZone as JsonObject;
  const serverAccepts = (timeZone: string) =>
    SetupRequest.safeParse({
      internalOrgId: 'org-1',
      organizationName: 'Acme Dental',
      internalUserId: 'user-1',
      user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.example.com' },
      timeZone,
    }).success;
  const documentAccepts = (timeZone: string) => schemaProblems(documented, timeZone).length === 0;

  it('agrees on every zone Intl names, every IANA alias, and their near misses', () => {
    const candidates = new Set([
      ...Intl.supportedValuesOf('timeZone'),
      ...IANA_TIME_ZONE_NAMES,
      // The names the red team sent that Intl takes but Intl.supportedValuesOf lacks.
      'UTC',
      'Asia/Kolkata',
      'Europe/Kyiv',
      'US/Eastern',
    ]);
    for (const name of [...candidates]) {
      candidates.add(name.toLowerCase());
      candidates.add(` ${name}`);
    }
    for (const other of ['Mars/Olympus', 'Factory', '', 'America/Chicago\u0000', 'x'.repeat(65)]) candidates.add(other);

    const disagreements = [...candidates].filter((name) => serverAccepts(name) !== documentAccepts(name));
    expect(disagreements).toEqual([]);
    for (const name of ['UTC', 'Asia/Kolkata', 'Europe/Kyiv', 'US/Eastern', 'America/Chicago'])
      expect(serverAccepts(name), name).toBe(true);
    expect(serverAccepts('america/chicago')).toBe(false);
  });

  it('lists only names this runtime can show times in, and every name Intl lists', () => {
    for (const name of IANA_TIME_ZONE_NAMES)
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: name })).not.toThrow();
    expect(Intl.supportedValuesOf('timeZone').filter((name) => !IANA_TIME_ZONE_NAMES.includes(name))).toEqual([]);
  });
});

describe('money: a standard validator accepts every amount the server does', () => {
  const orderLimit = schemas.SetupRequest.properties.user.properties.orderLimit as JsonObject;
  const refundAmount = schemas.RefundOrderRequest.properties.amount as JsonObject;

  it('states two decimals in words, not as multipleOf (which floats break)', () => {
    expect(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')).not.toMatch(/"multipleOf"/);
    expect(orderLimit.description).toMatch(/At most two decimals/);
    expect(refundAmount.description).toMatch(/At most two decimals/);
  });

  it('accepts every two-decimal amount the server accepts, and the server every one the document does', () => {
    // Every cent up to $1,000 (19.99, 0.07, 1.15 among them), then a sample up to the limits.
    const amounts = Array.from({ length: 100_000 }, (_, cents) => (cents + 1) / 100);
    amounts.push(
      2500.01,
      ...fc.sample(fc.integer({ min: 1, max: 1_000_000_000 }), { numRuns: 20_000, seed: 35 }).map((c) => c / 100),
    );
    const refused: string[] = [];
    for (const amount of amounts) {
      if (!OrderLimitInput.safeParse(amount).success) refused.push(`server orderLimit ${amount}`);
      if (schemaProblems(orderLimit, amount).length > 0) refused.push(`document orderLimit ${amount}`);
      if (schemaProblems(refundAmount, amount).length > 0) refused.push(`document refund ${amount}`);
    }
    expect(refused).toEqual([]);
    expect(() => parseTransition('refund', { amount: 19.99 })).not.toThrow();
  });

  it('refuses in both what is not money at all', () => {
    for (const amount of [0, -1, 10_000_000.01, '19.99'])
      expect([OrderLimitInput.safeParse(amount).success, schemaProblems(orderLimit, amount).length === 0]).toEqual([
        false,
        false,
      ]);
  });
});

describe('path parameters', () => {
  const pathParameters = DOCUMENTED_ROUTES.flatMap((route) =>
    ((route.operation.parameters ?? []) as JsonObject[])
      .filter((parameter) => parameter.in === 'path')
      .map((parameter) => ({ where: `${route.key} ${parameter.name}`, parameter })),
  );

  it('each state a maxLength, and refuse a longer value', () => {
    expect(pathParameters.length).toBeGreaterThan(10);
    for (const { where, parameter } of pathParameters) {
      const { maxLength } = parameter.schema as { maxLength?: number };
      expect(maxLength, where).toBeGreaterThan(0);
      expect(schemaProblems(parameter.schema, 'a'.repeat(maxLength! + 1)), where).not.toEqual([]);
    }
  });

  it("hold your ids to setup's limits", () => {
    const setup: JsonObject = schemas.SetupRequest.properties;
    const location = setup.shippingLocations.items.properties.internalShippingLocationId as JsonObject;
    const limits = Object.fromEntries(
      pathParameters
        .filter(({ parameter }) => parameter.name.startsWith('internal'))
        .map(({ parameter }) => [parameter.name, parameter.schema.maxLength]),
    );
    expect(limits).toEqual({
      internalOrgId: setup.internalOrgId.maxLength,
      internalUserId: setup.internalUserId.maxLength,
      internalShippingLocationId: location.maxLength,
    });
    expect(limits.internalOrgId).toBe(MAX_PARTNER_ID_LENGTH);
  });
});
