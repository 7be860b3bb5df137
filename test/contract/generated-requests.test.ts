/**
 * docs/openapi.json is no looser than the service: for every operation, requests
 * generated from its request schemas (body, path, query and header parameters) by
 * json-schema-faker are sent to a local stack, and none may be refused as invalid (400
 * `VALIDATION_ERROR`, the handshake's 400 `Invalid request body`) or fail (5xx). A
 * request schema that forgets a rule the handler enforces fails here, as Schemathesis
 * found for issue 28.
 *
 * Half of the requests name the partner's real organization, user, order and products
 * (as a partner's client would), so they reach the rules behind the lookups too; the
 * other half name unknown ones (404 is fine). Outcomes that depend on stored data and no
 * schema can foresee are allowed by name (`STATE_DEPENDENT`). Seeded: a failure names
 * the seed and request, and `GENERATED_REQUESTS_SEED=<seed>` replays the run.
 */
import { createGeneratorSync } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CATALOG } from '../../functions/domain/catalog/seed-catalog';
import {
  API_DOCUMENT,
  DOCUMENTED_ROUTES,
  type DocumentedRoute,
  type JsonObject,
  resolveRef,
  responseProblems,
  schemaProblems,
} from '../support/api-document';
import { aSetupBody, provisionProfile } from '../support/provisioned-profile';
import { stripeStandIn } from '../support/inspect';
import { startTestStack, type TestResponse, type TestStack } from '../support/test-stack';

const SEED = Number(process.env.GENERATED_REQUESTS_SEED ?? 28_10);
const REQUESTS_PER_OPERATION = 20;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

/** What a partner's client knows: its organization, user, an order, the active products. */
interface KnownValues {
  readonly headers: Record<string, string>;
  readonly internalOrgId: string;
  readonly internalUserId: string;
  readonly profileId: string;
  readonly orderId: string;
  readonly shippingLocationId: string;
  /** A pending approval request of a colleague's (the user is a buyer, so deciding it is refused past validation). */
  readonly approvalRequestId: string;
}

const ACTIVE_PRODUCTS = SEED_CATALOG.filter((product) => product.active).map((product) => product.product_id);

/** A partner of its own per operation (so rate limits stay far), with a user who has placed an order, and a colleague's approval request. */
async function aPartnerWithAnOrder(security: string): Promise<KnownValues> {
  const partner = await stack.createPartner();
  // Through setup, as a partner would: the organization's payment customer is real, so a PATCH can update it.
  const body = aSetupBody();
  const setup = await stack.post('/v1/organizations/setup', body, { Authorization: `Bearer ${partner.apiKey}` });
  expect(setup.status, setup.text).toBe(200);
  const { profile, organization, shippingLocations } = setup.body.data as {
    profile: { id: string };
    organization: { internalOrgId: string };
    shippingLocations: { internalShippingLocationId: string }[];
  };
  const headers: Record<string, string> =
    security === 'headerApiKey' ? { 'X-API-Key': partner.apiKey } : { Authorization: `Bearer ${partner.apiKey}` };
  const placed = await stack.post(
    '/v1/sandbox/orders',
    { profile_id: profile.id, items: [{ product_id: ACTIVE_PRODUCTS[0], quantity: 1 }] },
    { Authorization: `Bearer ${partner.apiKey}` },
  );
  expect(placed.status, placed.text).toBe(201);
  const colleague = aSetupBody({ internalOrgId: organization.internalOrgId });
  const requester = await provisionProfile(stack.deps, partner.partnerId, {
    ...colleague,
    user: { ...colleague.user, orderLimit: 1 } as typeof colleague.user,
  });
  const requested = await stack.post(
    '/v1/sandbox/orders',
    { profile_id: requester.profile.id, items: [{ product_id: ACTIVE_PRODUCTS[0], quantity: 1 }] },
    { Authorization: `Bearer ${partner.apiKey}` },
  );
  expect(requested.status, requested.text).toBe(202);
  return {
    headers,
    internalOrgId: organization.internalOrgId,
    internalUserId: body.internalUserId,
    profileId: profile.id,
    orderId: placed.body.order.id as string,
    shippingLocationId: shippingLocations[0]!.internalShippingLocationId,
    approvalRequestId: requested.body.approval_request.id as string,
  };
}

/**
 * Refusals that depend on what is stored, which no request schema can know: a
 * `starting_after` that is no order of the organization, an `internal_user_id` in
 * several organizations, a refund above the order's total.
 */
const STATE_DEPENDENT = (detail: JsonObject) =>
  detail.code === 'INVALID_CURSOR' ||
  detail.code === 'AMBIGUOUS_USER' ||
  (detail.code === 'TOO_BIG' && String(detail.path) === 'amount' && /order's total/.test(String(detail.message)));

/** The answer refuses the request as invalid, or fails: what a schema-valid request must never get. */
function refusal(response: TestResponse): string | undefined {
  if (response.status >= 500) return `${response.status}`;
  if (response.status !== 400) return undefined;
  const body = (response.body ?? {}) as JsonObject;
  const isValidationError = body.code === 'VALIDATION_ERROR' || body.error === 'Invalid request body';
  if (!isValidationError) return undefined;
  const details = Array.isArray(body.details) ? (body.details as JsonObject[]) : [];
  return details.length > 0 && details.every(STATE_DEPENDENT) ? undefined : `400 ${JSON.stringify(body)}`;
}

interface GeneratedRequest {
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
}

/** The operation's parameters, `$ref`s resolved. */
const parametersOf = (route: DocumentedRoute): JsonObject[] =>
  ((route.operation.parameters ?? []) as JsonObject[]).map(resolveRef);

const bodySchemaOf = (route: DocumentedRoute): JsonObject | undefined => {
  const media = route.operation.requestBody?.content?.['application/json'];
  return media ? resolveRef(media.schema) : undefined;
};

/** The generated value with the known organization, user, order and products put in, where the request names them. */
function withKnownValues(value: unknown, known: KnownValues, name?: string): unknown {
  // Items name products one each (each product at most once), as long as the catalog has enough.
  if (Array.isArray(value))
    return value.map((item, index) =>
      isObject(item) && 'product_id' in item && index < ACTIVE_PRODUCTS.length
        ? { ...item, product_id: ACTIVE_PRODUCTS[index] }
        : withKnownValues(item, known),
    );
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withKnownValues(inner, known, key)]));
  switch (name) {
    case 'internal_org_id':
      return known.internalOrgId;
    case 'internal_user_id':
      return known.internalUserId;
    case 'profile_id':
      return known.profileId;
    case 'order_id':
    case 'starting_after':
      return known.orderId;
    case 'internal_shipping_location_id':
      return known.shippingLocationId;
    case 'approval_request_id':
      return known.approvalRequestId;
    case 'internalOrgId':
      return known.internalOrgId;
    default:
      return value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rules the document states in words only, JSON Schema having no way to compare one
 * field across array items: a request that breaks one is not schema-valid in the
 * document's own terms, so it is not sent.
 */
function breaksRuleInWords(body: unknown): string | undefined {
  const repeats = (values: unknown[]) => new Set(values).size < values.length;
  // Money's "at most two decimals" is in words: the server reads the number's decimal text, which no JSON Schema keyword can.
  const moreThanTwoDecimals = (value: unknown): boolean =>
    typeof value === 'number'
      ? (String(value).split('.')[1] ?? '').length > 2
      : isObject(value) || Array.isArray(value)
        ? Object.values(value).some(moreThanTwoDecimals)
        : false;
  if (moreThanTwoDecimals(body)) return 'an amount has more than two decimals in its decimal text';
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.items) && repeats(body.items.map((item) => (isObject(item) ? item.product_id : undefined))))
    return 'a product_id repeats';
  if (
    Array.isArray(body.shippingLocations) &&
    repeats(
      body.shippingLocations.map((location) =>
        isObject(location) ? String(location.internalShippingLocationId).trim() : undefined,
      ),
    )
  ) {
    return 'an internalShippingLocationId repeats';
  }
  return undefined;
}

function generateRequests(
  route: DocumentedRoute,
  known: KnownValues,
  seed: number,
): { requests: GeneratedRequest[]; discarded: string[] } {
  // Arrays of at most 3 keep requests small; json-schema-faker ignores maxContains, which 3 locations rarely break.
  const generator = createGeneratorSync({ seed, maxItems: 3 });
  const bodySchema = bodySchemaOf(route);
  const requests: GeneratedRequest[] = [];
  const discarded: string[] = [];
  for (
    let attempt = 0;
    // Setup's body has many money fields, each a chance of a third decimal: up to 40 tries a request.
    requests.length < REQUESTS_PER_OPERATION && attempt < REQUESTS_PER_OPERATION * 40;
    attempt += 1
  ) {
    const useKnown = attempt % 2 === 1;
    const problems: string[] = [];
    let path = route.path;
    const query: Record<string, string> = {};
    const headers: Record<string, string> = { ...known.headers };
    for (const parameter of parametersOf(route)) {
      if (!parameter.required && attempt % 3 === 0) continue;
      let value = generator.generate(parameter.schema as JsonObject);
      if (useKnown) value = withKnownValues(value, known, parameter.name as string);
      problems.push(
        ...schemaProblems(parameter.schema, value).map((problem) => `${parameter.name as string}: ${problem}`),
      );
      const text = String(value);
      if (parameter.in === 'path') path = path.replace(`{${parameter.name as string}}`, encodeURIComponent(text));
      else if (parameter.in === 'query') query[parameter.name as string] = text;
      else headers[parameter.name as string] = text;
    }
    // A range's end after its start is in words too (GET /v1/orders: `created_lt` after `created_gte`).
    if (query.created_gte && query.created_lt && !(Date.parse(query.created_lt) > Date.parse(query.created_gte)))
      problems.push('created_lt is not after created_gte');
    let body: unknown;
    if (bodySchema) {
      body = generator.generate(bodySchema);
      if (useKnown) body = withKnownValues(body, known);
      problems.push(
        ...schemaProblems(route.operation.requestBody.content['application/json'].schema, body).map(
          (problem) => `body: ${problem}`,
        ),
      );
      // Those rules are about partners' requests; Stripe's numbers are Stripe's (integer cents).
      const broken = isStripeSigned(route) ? undefined : breaksRuleInWords(body);
      if (broken) problems.push(broken);
    }
    // The generator's own misses (a rule it cannot meet) are dropped, never sent as "valid".
    if (problems.length > 0) discarded.push(problems.join('; '));
    else requests.push({ path, query, headers, ...(bodySchema ? { body } : {}) });
  }
  return { requests, discarded };
}

/** Stripe's route is signed, not keyed: what Stripe would send is the generated event, signed with the stack's secret. */
const isStripeSigned = (route: DocumentedRoute) =>
  (route.operation.security as JsonObject[]).some((scheme) => 'stripeSignature' in scheme);

async function send(route: DocumentedRoute, request: GeneratedRequest): Promise<TestResponse> {
  const search = new URLSearchParams(request.query).toString();
  const path = `${request.path}${search ? `?${search}` : ''}`;
  if (isStripeSigned(route)) {
    const payload = JSON.stringify(request.body);
    const secret = stack.config.STRIPE_WEBHOOK_SECRET as string;
    return stack.post(path, payload, {
      'Stripe-Signature': stripeStandIn().webhooks.generateTestHeaderString({ payload, secret }),
    });
  }
  if (route.method === 'get') return stack.get(path, request.headers);
  return route.method === 'patch'
    ? stack.patch(path, request.body ?? {}, request.headers)
    : stack.post(path, request.body ?? {}, request.headers);
}

/** A stable number per operation, so each has its own requests under one seed. */
const operationSeed = (route: DocumentedRoute) =>
  [...route.key].reduce((hash, character) => (hash * 31 + character.charCodeAt(0)) >>> 0, SEED);

describe('requests generated from docs/openapi.json', () => {
  it('covers every operation of the document', () => {
    expect(DOCUMENTED_ROUTES.length).toBe(
      Object.values(API_DOCUMENT.paths as JsonObject).flatMap((methods) => Object.keys(methods)).length,
    );
  });

  for (const route of DOCUMENTED_ROUTES) {
    it(`${route.key}: a schema-valid request is never refused as invalid and never fails`, async () => {
      const security = Object.keys((route.operation.security as JsonObject[])[0] ?? {})[0] ?? 'bearerApiKey';
      const known = await aPartnerWithAnOrder(security);
      const seed = operationSeed(route);
      const { requests, discarded } = generateRequests(route, known, seed);
      expect(
        requests.length,
        `too few schema-valid requests (seed ${seed}); the generator missed: ${discarded.slice(0, 3).join(' | ')}`,
      ).toBe(REQUESTS_PER_OPERATION);
      const failures: string[] = [];
      for (const request of requests) {
        const response = await send(route, request);
        const refused = refusal(response);
        if (refused) failures.push(`${JSON.stringify(request)} -> ${refused}`);
        else {
          const problems = responseProblems(route.key, response);
          if (problems.length > 0)
            failures.push(`${JSON.stringify(request)} -> ${response.status} off the document: ${problems.join('; ')}`);
        }
      }
      expect(failures, `seed ${seed} (GENERATED_REQUESTS_SEED=${SEED})`).toEqual([]);
    });
  }
});
