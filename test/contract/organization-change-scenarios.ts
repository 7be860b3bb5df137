/**
 * How to provoke every documented status of the partner's user and shipping-location
 * routes (after setup) on a local test stack, for the contract suite.
 */
import { keyedRequest } from '../../functions/api/pipeline/idempotency-key';
import { whileFailing } from '../support/fault-plan';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { exhaustRateLimit } from '../support/rate-limit';
import type { TestResponse, TestStack } from '../support/test-stack';
import type { Scenarios } from './order-api-scenarios';

const ORGANIZATION = '/v1/organizations/{internalOrgId}';
const USER = '/v1/organizations/{internalOrgId}/users/{internalUserId}';
const LOCATIONS = '/v1/organizations/{internalOrgId}/shipping-locations';
const LOCATION = '/v1/organizations/{internalOrgId}/shipping-locations/{internalShippingLocationId}';

const NEW_LOCATION = {
  internalShippingLocationId: 'loc-2',
  name: 'Warehouse',
  address: { line1: '9 Dock Rd', city: 'Austin', province: 'tx', postalCode: '78702' },
};

export function organizationChangeScenarios(stackOf: () => TestStack, failNextStripeCall: () => void): Scenarios {
  const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

  /** A partner with one provisioned user in an organization with location `loc-main`. */
  async function aPartner() {
    const stack = stackOf();
    const partner = await stack.createPartner();
    const { profile } = await provisionProfile(stack.deps, partner.partnerId, aSetupBody());
    const org = profile.internalOrgId;
    return {
      ...partner,
      params: { internalOrgId: org, internalUserId: profile.internalUserId, internalShippingLocationId: 'loc-main' },
      headers: bearer(partner.apiKey),
      organizationPath: `/v1/organizations/${org}`,
      userPath: `/v1/organizations/${org}/users/${profile.internalUserId}`,
      locationsPath: `/v1/organizations/${org}/shipping-locations`,
      locationPath: `/v1/organizations/${org}/shipping-locations/loc-main`,
    };
  }
  type Partner = Awaited<ReturnType<typeof aPartner>>;

  /** An organization set up through the API: its Stripe customer must exist to be updated (or the setup's answer). */
  async function aBilledOrganization() {
    const p = await aPartner();
    const setup = await stackOf().post('/v1/organizations/setup', aSetupBody({ internalOrgId: 'billed' }), p.headers);
    if (setup.status !== 200) return setup;
    return { path: '/v1/organizations/billed', headers: p.headers };
  }

  const keyWithout = async () =>
    bearer((await stackOf().createPartner({ scopes: ['session:write', 'orders:read'] })).apiKey);

  /** The window for `endpoint` used up, so the next request is a 429. */
  async function rateLimited(
    endpoint: Parameters<typeof exhaustRateLimit>[2],
    send: (partner: Partner) => Promise<TestResponse>,
  ) {
    const partner = await aPartner();
    await exhaustRateLimit(stackOf(), partner.partnerId, endpoint, 100);
    return send(partner);
  }

  /**
   * The organizations table failing every write (and, with `reads`, every read) while
   * `send` runs; `operation` names the one call to fail instead.
   */
  function withStoreDown(send: () => Promise<TestResponse>, reads = false, operation?: string) {
    const failing = operation ?? (reads ? 'GetItem' : 'TransactWriteItems');
    return whileFailing(
      stackOf(),
      'dynamodb',
      (call) => call.target.includes('organizations') && call.operation === failing,
      send,
    );
  }

  /** A request whose Idempotency-Key another request of the partner, to the same route and resource, holds (claimed, not finished). */
  async function inFlight(
    endpoint: string,
    partner: Partner,
    route: { routeKey: string; params: readonly (keyof Partner['params'])[] },
    send: (headers: Record<string, string>) => Promise<TestResponse>,
    body: unknown,
  ) {
    const pathParameters = Object.fromEntries(route.params.map((name) => [name, partner.params[name]]));
    const request = keyedRequest({ routeKey: route.routeKey, pathParameters }, body);
    await stackOf().deps.functions.setup.idempotency.begin(
      `${endpoint}#${partner.partnerId}`,
      'contract-in-flight',
      request,
    );
    return send({ ...partner.headers, 'Idempotency-Key': 'contract-in-flight' });
  }

  return {
    [`GET ${ORGANIZATION}`]: {
      200: [
        [
          'an organization',
          async () => {
            const p = await aPartner();
            return stackOf().get(p.organizationPath, p.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get((await aPartner()).organizationPath)]],
      403: [
        [
          'a key without organization:write',
          async () => stackOf().get((await aPartner()).organizationPath, await keyWithout()),
        ],
      ],
      404: [
        [
          "another partner's organization",
          async () => {
            const theirs = await aPartner();
            const mine = await aPartner();
            return stackOf().get(theirs.organizationPath, mine.headers);
          },
        ],
      ],
      429: [
        [
          'over 100 a minute',
          async () => rateLimited('organization-get', (p) => stackOf().get(p.organizationPath, p.headers)),
        ],
      ],
      500: [
        [
          'the store down',
          async () => {
            const p = await aPartner();
            return withStoreDown(() => stackOf().get(p.organizationPath, p.headers), true, 'Query');
          },
        ],
      ],
    },
    [`PATCH ${ORGANIZATION}`]: {
      200: [
        [
          'new terms and billing e-mail',
          async () => {
            const billed = await aBilledOrganization();
            if ('status' in billed) return billed;
            return stackOf().patch(
              billed.path,
              { paymentTerms: 'net60', billingEmail: 'ap@practice.test' },
              billed.headers,
            );
          },
        ],
      ],
      400: [
        [
          'an unknown term and a malformed billing e-mail',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.organizationPath, { paymentTerms: 'net45', billingEmail: 'nope' }, p.headers);
          },
        ],
        [
          'no changes',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.organizationPath, {}, p.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().patch((await aPartner()).organizationPath, { paymentTerms: 'net15' })]],
      403: [
        [
          'a key without organization:write',
          async () =>
            stackOf().patch((await aPartner()).organizationPath, { paymentTerms: 'net15' }, await keyWithout()),
        ],
      ],
      404: [
        [
          "another partner's organization",
          async () => {
            const theirs = await aPartner();
            const mine = await aPartner();
            return stackOf().patch(theirs.organizationPath, { paymentTerms: 'net15' }, mine.headers);
          },
        ],
      ],
      409: [
        [
          'IDEMPOTENCY_KEY_IN_USE',
          async () => {
            const p = await aPartner();
            const body = { paymentTerms: 'net15' };
            return inFlight(
              'organization-update',
              p,
              { routeKey: `PATCH ${ORGANIZATION}`, params: ['internalOrgId'] },
              (headers) => stackOf().patch(p.organizationPath, body, headers),
              body,
            );
          },
        ],
      ],
      429: [
        [
          'over 100 a minute',
          async () =>
            rateLimited('organization-update', (p) =>
              stackOf().patch(p.organizationPath, { paymentTerms: 'net15' }, p.headers),
            ),
        ],
      ],
      500: [
        [
          'the store down',
          async () => {
            const billed = await aBilledOrganization();
            if ('status' in billed) return billed;
            return withStoreDown(
              () => stackOf().patch(billed.path, { paymentTerms: 'net15' }, billed.headers),
              false,
              'UpdateItem',
            );
          },
        ],
      ],
      503: [
        [
          'Stripe down',
          async () => {
            const billed = await aBilledOrganization();
            if ('status' in billed) return billed;
            failNextStripeCall();
            return stackOf().patch(billed.path, { paymentTerms: 'net60' }, billed.headers);
          },
        ],
      ],
    },
    [`GET ${USER}`]: {
      200: [
        [
          'a user',
          async () => {
            const p = await aPartner();
            return stackOf().get(p.userPath, p.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().get((await aPartner()).userPath)]],
      403: [
        [
          'a key without organization:write',
          async () => stackOf().get((await aPartner()).userPath, await keyWithout()),
        ],
      ],
      404: [
        [
          'an unknown user',
          async () => {
            const p = await aPartner();
            return stackOf().get(`${p.userPath}-nobody`, p.headers);
          },
        ],
        [
          "another partner's organization",
          async () => {
            const theirs = await aPartner();
            const mine = await aPartner();
            return stackOf().get(theirs.userPath, mine.headers);
          },
        ],
      ],
      429: [
        [
          'over 100 a minute',
          async () => rateLimited('organization-user-get', (p) => stackOf().get(p.userPath, p.headers)),
        ],
      ],
      500: [
        [
          'the store down',
          async () => {
            const p = await aPartner();
            return withStoreDown(() => stackOf().get(p.userPath, p.headers), true);
          },
        ],
      ],
    },
    [`PATCH ${USER}`]: {
      200: [
        [
          'a new role and limit',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.userPath, { role: 'approver', orderLimit: 250.5 }, p.headers);
          },
        ],
      ],
      400: [
        [
          'field rules',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.userPath, { user: { email: 'nope' }, orderLimit: 1.005 }, p.headers);
          },
        ],
        [
          'an empty body',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.userPath, '', p.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().patch((await aPartner()).userPath, { role: 'buyer' })]],
      403: [
        [
          'a key without organization:write',
          async () => stackOf().patch((await aPartner()).userPath, { role: 'buyer' }, await keyWithout()),
        ],
      ],
      404: [
        [
          'an unknown organization',
          async () => {
            const p = await aPartner();
            return stackOf().patch('/v1/organizations/nowhere/users/u-1', { role: 'buyer' }, p.headers);
          },
        ],
      ],
      409: [
        [
          'IDEMPOTENCY_KEY_IN_USE',
          async () => {
            const p = await aPartner();
            const body = { active: false };
            return inFlight(
              'organization-user-update',
              p,
              { routeKey: `PATCH ${USER}`, params: ['internalOrgId', 'internalUserId'] },
              (headers) => stackOf().patch(p.userPath, body, headers),
              body,
            );
          },
        ],
      ],
      429: [
        [
          'over 100 a minute',
          async () =>
            rateLimited('organization-user-update', (p) => stackOf().patch(p.userPath, { role: 'buyer' }, p.headers)),
        ],
      ],
      500: [
        [
          'the store down',
          async () => {
            const p = await aPartner();
            return withStoreDown(() => stackOf().patch(p.userPath, { role: 'approver' }, p.headers));
          },
        ],
      ],
    },
    [`POST ${LOCATIONS}`]: {
      201: [
        [
          'a new default location',
          async () => {
            const p = await aPartner();
            return stackOf().post(p.locationsPath, { ...NEW_LOCATION, isDefault: true }, p.headers);
          },
        ],
      ],
      400: [
        [
          'field rules',
          async () => {
            const p = await aPartner();
            return stackOf().post(
              p.locationsPath,
              { ...NEW_LOCATION, address: { ...NEW_LOCATION.address, province: 'Ontario' } },
              p.headers,
            );
          },
        ],
      ],
      401: [['no key', async () => stackOf().post((await aPartner()).locationsPath, NEW_LOCATION)]],
      403: [
        [
          'a key without organization:write',
          async () => stackOf().post((await aPartner()).locationsPath, NEW_LOCATION, await keyWithout()),
        ],
      ],
      404: [
        [
          "another partner's organization",
          async () => {
            const theirs = await aPartner();
            const mine = await aPartner();
            return stackOf().post(theirs.locationsPath, NEW_LOCATION, mine.headers);
          },
        ],
      ],
      409: [
        [
          'SHIPPING_LOCATION_ALREADY_EXISTS',
          async () => {
            const p = await aPartner();
            return stackOf().post(
              p.locationsPath,
              { ...NEW_LOCATION, internalShippingLocationId: 'loc-main' },
              p.headers,
            );
          },
        ],
        [
          'IDEMPOTENCY_KEY_IN_USE',
          async () => {
            const p = await aPartner();
            return inFlight(
              'shipping-location-create',
              p,
              { routeKey: `POST ${LOCATIONS}`, params: ['internalOrgId'] },
              (headers) => stackOf().post(p.locationsPath, NEW_LOCATION, headers),
              NEW_LOCATION,
            );
          },
        ],
      ],
      429: [
        [
          'over 100 a minute',
          async () =>
            rateLimited('shipping-location-create', (p) => stackOf().post(p.locationsPath, NEW_LOCATION, p.headers)),
        ],
      ],
      500: [
        [
          'the store down',
          async () => {
            const p = await aPartner();
            return withStoreDown(() => stackOf().post(p.locationsPath, NEW_LOCATION, p.headers));
          },
        ],
      ],
    },
    [`PATCH ${LOCATION}`]: {
      200: [
        [
          'inactive',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.locationPath, { isActive: false, isDefault: false, nickname: 'Old' }, p.headers);
          },
        ],
      ],
      400: [
        [
          'no changes',
          async () => {
            const p = await aPartner();
            return stackOf().patch(p.locationPath, {}, p.headers);
          },
        ],
      ],
      401: [['no key', async () => stackOf().patch((await aPartner()).locationPath, { isActive: false })]],
      403: [
        [
          'a key without organization:write',
          async () => stackOf().patch((await aPartner()).locationPath, { isActive: false }, await keyWithout()),
        ],
      ],
      404: [
        [
          'an unknown location',
          async () => {
            const p = await aPartner();
            return stackOf().patch(`${p.locationsPath}/loc-nowhere`, { isActive: false }, p.headers);
          },
        ],
      ],
      409: [
        [
          'IDEMPOTENCY_KEY_IN_USE',
          async () => {
            const p = await aPartner();
            const body = { isActive: false };
            return inFlight(
              'shipping-location-update',
              p,
              { routeKey: `PATCH ${LOCATION}`, params: ['internalOrgId', 'internalShippingLocationId'] },
              (headers) => stackOf().patch(p.locationPath, body, headers),
              body,
            );
          },
        ],
      ],
      429: [
        [
          'over 100 a minute',
          async () =>
            rateLimited('shipping-location-update', (p) =>
              stackOf().patch(p.locationPath, { isActive: false }, p.headers),
            ),
        ],
      ],
      500: [
        [
          'the store down',
          async () => {
            const p = await aPartner();
            return withStoreDown(() =>
              stackOf().patch(p.locationPath, { isActive: false, isDefault: false }, p.headers),
            );
          },
        ],
      ],
    },
  };
}
