/**
 * Every path parameter of every route, from the route table, sent over-long and odd: the
 * answer is the route's documented 404 (the partner API) or the module's 4xx, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../functions/routes';
import { SCOPES } from '../../functions/domain/partners/partner';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
let apiKey: string;
let partnerId: string;
beforeAll(async () => {
  stack = await startTestStack({ queuePollers: false });
  ({ apiKey, partnerId } = await stack.createPartner({ scopes: [...SCOPES] }));
});
afterAll(() => stack.close());

/** Raw path segments: percent-encoded where a URL needs it. */
const ODD_VALUES: Readonly<Record<string, string>> = {
  '1,024 characters': 'x'.repeat(1024),
  '4,000 characters': 'u'.repeat(4000),
  '257 characters': 'a'.repeat(257),
  blank: '%20%20',
  'a NUL': 'a%00b',
  'a bidi override': 'a%E2%80%AEb',
  '257 emoji': '%F0%9F%98%80'.repeat(257),
  'a lone surrogate escape': '%ED%A0%80',
};
/** Malformed escapes the gateway itself answers 400, before the function. */
const GATEWAY_REFUSED = ['a lone surrogate escape'];

const parametersOf = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name as string);
/** A value of the right shape for the parameters not under test: only the one under test names nothing. */
const plausible = (name: string) =>
  name === 'partnerId'
    ? partnerId
    : name === 'imageKey'
      ? `${'a'.repeat(64)}.png`
      : name.startsWith('internal')
        ? 'org-1'
        : '4f84fe3d-34b3-4b20-825a-e2c33467164c';

/** The 404 body each partner API parameter names when its value names nothing. */
const NOT_FOUND_CODES: Readonly<Record<string, string>> = {
  internalOrgId: 'ORGANIZATION_NOT_FOUND',
  internalUserId: 'PROFILE_NOT_FOUND',
  internalShippingLocationId: 'SHIPPING_LOCATION_NOT_FOUND',
  order_id: 'ORDER_NOT_FOUND',
  approval_request_id: 'APPROVAL_REQUEST_NOT_FOUND',
  delivery_id: 'DELIVERY_NOT_FOUND',
  invoice_id: 'INVOICE_NOT_FOUND',
};

describe('path parameters outside their documented rules', () => {
  const cases = ROUTES.flatMap((route) => parametersOf(route.path).map((parameter) => ({ route, parameter })));

  it('covers every parameter of the route table', () => {
    expect(new Set(cases.map(({ parameter }) => parameter))).toEqual(
      new Set([...Object.keys(NOT_FOUND_CODES), 'partnerId', 'productId', 'orderId', 'requestId', 'imageKey']),
    );
  });

  it.each(cases.map(({ route, parameter }) => [`${routeKey(route)} {${parameter}}`, route, parameter] as const))(
    '%s: never a 500',
    async (_, route, parameter) => {
      stack.clock.advance(60_000); // a fresh rate-limit window per route
      for (const [label, value] of Object.entries(ODD_VALUES)) {
        const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          name === parameter ? value : plausible(name),
        );
        const res = await fetch(`${stack.url}${path}`, {
          method: route.method,
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
          ...(route.method === 'GET' ? {} : { body: '{}' }),
          redirect: 'manual',
        });
        const what = `${routeKey(route)} ${parameter}: ${label}`;
        if (route.host === 'embed' || GATEWAY_REFUSED.includes(label)) {
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect(res.status, what).toBeLessThan(500);
          continue;
        }
        expect(res.status, what).toBe(404);
        expect(((await res.json()) as { code: string }).code, what).toBe(NOT_FOUND_CODES[parameter]);
      }
    },
  );
});
