/**
 * THE route table: every HTTP route of the partner API and the embed host, declared once.
 *
 * The CDK stack (lib/infrastructure/constructs/api.ts), the local gateway
 * (lib/local-runtime/local-stack.ts), the API pipeline (credential, scope, limit, body,
 * error shape, sandbox-only), the routing inside multi-route functions and the partner
 * API document (lib/api-docs/, with each route's document from
 * functions/api/openapi/partner-api.ts) all read it, so a route missing here is missing
 * everywhere. Plain data: Lambda code, CDK and the local runtime all import it, so it
 * imports no handler, middleware, schema or AWS code.
 */
import type { Scope } from './domain/partners/partner';
import type { HttpFunctionName } from './resources/resource-definitions';
import type { Stage } from './resources/stages';

/** Names the endpoint in the request log and keys its rate-limit window (routes that share a window share a name). */
export type ApiEndpointName =
  | 'setup'
  | 'handshake'
  | 'catalog-products'
  | 'order-get'
  | 'order-list'
  | 'sandbox-order-create'
  | 'sandbox-order-transition'
  | 'webhook-test'
  | 'organization-user-get'
  | 'organization-user-update'
  | 'shipping-location-create'
  | 'shipping-location-update'
  | 'webhook-delivery-list'
  | 'webhook-delivery-get'
  | 'webhook-delivery-retry'
  | 'webhook-endpoint-get'
  | 'approval-request-list'
  | 'approval-request-get'
  | 'sandbox-approval-decision';

/**
 * What the route's own failures look like. `general` is `{ error, message, code, details }`
 * with the 500 body's code and message; `handshake` is the contract's `{ error, details }`
 * for the handshake's own failures, with its 500 body. Authentication, permission and
 * rate-limit failures are the general body on every route.
 */
export type ErrorShape =
  | {
      readonly shape: 'general';
      readonly serverError: { readonly code: 'INTERNAL_ERROR' | 'SETUP_ERROR'; readonly message: string };
    }
  | { readonly shape: 'handshake'; readonly serverError: { readonly error: string; readonly details: string } };

/** API Gateway's per-route ceiling (requests per second, burst): a flood against one route throttles that route only. */
interface Throttle {
  readonly rate: number;
  readonly burst: number;
}

interface RouteBase {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** With `{name}` path parameters, as API Gateway writes them. */
  readonly path: string;
  readonly fn: HttpFunctionName;
  readonly throttle: Throttle;
}

export interface ApiRoute extends RouteBase {
  readonly host: 'api';
  readonly endpoint: ApiEndpointName;
  /** The one header the route reads the key from; the other one is a 401. */
  readonly credential: 'authorization-bearer' | 'x-api-key';
  readonly scope: Scope;
  /** Requests per partner per minute (contract: Limits). */
  readonly limitPerMinute: number;
  /** `required` (a JSON object), `optional` (an empty body is `{}`), `ignored` (GET routes: never read). */
  readonly body: 'required' | 'optional' | 'ignored';
  readonly errors: ErrorShape;
  /**
   * Served on the sandbox stage only: production's API has no such route (API Gateway
   * answers 404), and the function refuses it too on any stage but sandbox.
   */
  readonly sandboxOnly: boolean;
}

interface EmbedRoute extends RouteBase {
  readonly host: 'embed';
}

export type Route = ApiRoute | EmbedRoute;

const GENERAL_ERRORS = {
  shape: 'general',
  serverError: { code: 'INTERNAL_ERROR', message: 'The request failed; retry with exponential backoff' },
} as const satisfies ErrorShape;

/** The order API's reads (docs/orders-api.md): reconciliation after missed webhooks, so they get the handshake's budget. */
const orderRead = {
  host: 'api',
  credential: 'authorization-bearer',
  scope: 'orders:read',
  body: 'ignored',
  errors: GENERAL_ERRORS,
  sandboxOnly: false,
} as const;
/** The sandbox's writes: a partner's CI placing and advancing orders; setup's budget, and a low ceiling. */
const sandboxWrite = {
  host: 'api',
  credential: 'authorization-bearer',
  scope: 'orders:write',
  errors: GENERAL_ERRORS,
  sandboxOnly: true,
  throttle: { rate: 10, burst: 20 },
} as const;
const transition = {
  ...sandboxWrite,
  fn: 'ordersApi',
  endpoint: 'sandbox-order-transition',
  limitPerMinute: 100,
  body: 'optional',
} as const;
/** An approver's decision on sandbox: the body names the approver, so it is required. */
const approvalDecision = {
  ...sandboxWrite,
  fn: 'ordersApi',
  endpoint: 'sandbox-approval-decision',
  limitPerMinute: 100,
  body: 'required',
} as const;
/** A partner's own deliveries and endpoint (docs/webhooks.md, "Inspecting and retrying deliveries"), on both stages. */
const webhookRead = {
  host: 'api',
  fn: 'webhooksApi',
  credential: 'authorization-bearer',
  scope: 'webhooks:read',
  body: 'ignored',
  errors: GENERAL_ERRORS,
  sandboxOnly: false,
} as const;
const embed = { host: 'embed', fn: 'embed' } as const;
const organizationChange = {
  host: 'api',
  fn: 'setup',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
  errors: GENERAL_ERRORS,
  sandboxOnly: false,
  throttle: { rate: 20, burst: 40 },
} as const;
/** The module's pages: people clicking, a few requests a second per user at most. */
const page = { ...embed, throttle: { rate: 50, burst: 100 } } as const;

export const ROUTES = [
  {
    host: 'api',
    method: 'POST',
    path: '/v1/organizations/setup',
    fn: 'setup',
    endpoint: 'setup',
    credential: 'authorization-bearer',
    scope: 'organization:write',
    limitPerMinute: 100,
    body: 'required',
    errors: {
      shape: 'general',
      serverError: { code: 'SETUP_ERROR', message: 'Setup failed; retry with exponential backoff' },
    },
    sandboxOnly: false,
    // The lowest ceiling: every new organization creates a Stripe customer.
    throttle: { rate: 20, burst: 40 },
  },
  {
    host: 'api',
    method: 'POST',
    path: '/v1/partner/handshake',
    fn: 'handshake',
    endpoint: 'handshake',
    credential: 'x-api-key',
    scope: 'session:write',
    limitPerMinute: 300,
    body: 'required',
    errors: {
      shape: 'handshake',
      serverError: {
        error: 'Failed to create authentication session',
        details: 'The session could not be created; retry with exponential backoff',
      },
    },
    sandboxOnly: false,
    throttle: { rate: 50, burst: 100 },
  },
  // The partner's users and shipping locations after setup (docs/setup.md), served by the setup function: each has
  // setup's scope and budget in a window of its own, so syncing users never starves provisioning. No Stripe: a higher ceiling.
  {
    ...organizationChange,
    method: 'GET',
    path: '/v1/organizations/{internalOrgId}/users/{internalUserId}',
    endpoint: 'organization-user-get',
    body: 'ignored',
  },
  {
    ...organizationChange,
    method: 'PATCH',
    path: '/v1/organizations/{internalOrgId}/users/{internalUserId}',
    endpoint: 'organization-user-update',
    body: 'required',
  },
  {
    ...organizationChange,
    method: 'POST',
    path: '/v1/organizations/{internalOrgId}/shipping-locations',
    endpoint: 'shipping-location-create',
    body: 'required',
  },
  {
    ...organizationChange,
    method: 'PATCH',
    path: '/v1/organizations/{internalOrgId}/shipping-locations/{internalShippingLocationId}',
    endpoint: 'shipping-location-update',
    body: 'required',
  },
  // The catalog changes rarely and is cached by callers. Reads are cheap single queries: the per-partner limits bind long before the ceilings.
  {
    ...orderRead,
    method: 'GET',
    path: '/v1/catalog/products',
    fn: 'ordersApi',
    endpoint: 'catalog-products',
    limitPerMinute: 60,
    throttle: { rate: 20, burst: 40 },
  },
  {
    ...orderRead,
    method: 'GET',
    path: '/v1/orders',
    fn: 'ordersApi',
    endpoint: 'order-list',
    limitPerMinute: 300,
    throttle: { rate: 50, burst: 100 },
  },
  {
    ...orderRead,
    method: 'GET',
    path: '/v1/orders/{order_id}',
    fn: 'ordersApi',
    endpoint: 'order-get',
    limitPerMinute: 300,
    throttle: { rate: 50, burst: 100 },
  },
  {
    ...sandboxWrite,
    method: 'POST',
    path: '/v1/sandbox/orders',
    fn: 'ordersApi',
    endpoint: 'sandbox-order-create',
    limitPerMinute: 100,
    body: 'required',
  },
  // The five actions share one window, in the order of the lifecycle.
  { ...transition, method: 'POST', path: '/v1/sandbox/orders/{order_id}/confirm' },
  { ...transition, method: 'POST', path: '/v1/sandbox/orders/{order_id}/ship' },
  { ...transition, method: 'POST', path: '/v1/sandbox/orders/{order_id}/deliver' },
  { ...transition, method: 'POST', path: '/v1/sandbox/orders/{order_id}/cancel' },
  { ...transition, method: 'POST', path: '/v1/sandbox/orders/{order_id}/refund' },
  // Approval requests (docs/orders-api.md) are orders-to-be: reading them is `orders:read` with the order reads'
  // budget, and on sandbox an approver's two decisions share one window, as the order actions do.
  {
    ...orderRead,
    method: 'GET',
    path: '/v1/organizations/{internalOrgId}/approval-requests',
    fn: 'ordersApi',
    endpoint: 'approval-request-list',
    limitPerMinute: 300,
    throttle: { rate: 50, burst: 100 },
  },
  {
    ...orderRead,
    method: 'GET',
    path: '/v1/approval-requests/{approval_request_id}',
    fn: 'ordersApi',
    endpoint: 'approval-request-get',
    limitPerMinute: 300,
    throttle: { rate: 50, burst: 100 },
  },
  { ...approvalDecision, method: 'POST', path: '/v1/sandbox/approval-requests/{approval_request_id}/approve' },
  { ...approvalDecision, method: 'POST', path: '/v1/sandbox/approval-requests/{approval_request_id}/reject' },
  // A sample webhook through the real pipeline (docs/webhooks.md, "Test events"). `orders:write` is the sandbox's
  // "make my webhooks fire" scope (docs/decisions.md); each request is one POST to the partner, so its limits are lower.
  {
    ...sandboxWrite,
    method: 'POST',
    path: '/v1/webhooks/test',
    fn: 'webhookTest',
    endpoint: 'webhook-test',
    limitPerMinute: 60,
    body: 'required',
    throttle: { rate: 5, burst: 10 },
  },
  // Reads are single queries or gets, the order reads' budget; a retry is one more POST to the partner, so it gets the test event's.
  {
    ...webhookRead,
    method: 'GET',
    path: '/v1/webhooks/deliveries',
    endpoint: 'webhook-delivery-list',
    limitPerMinute: 300,
    throttle: { rate: 50, burst: 100 },
  },
  {
    ...webhookRead,
    method: 'GET',
    path: '/v1/webhooks/deliveries/{delivery_id}',
    endpoint: 'webhook-delivery-get',
    limitPerMinute: 300,
    throttle: { rate: 50, burst: 100 },
  },
  {
    ...webhookRead,
    method: 'POST',
    path: '/v1/webhooks/deliveries/{delivery_id}/retry',
    endpoint: 'webhook-delivery-retry',
    scope: 'webhooks:write',
    limitPerMinute: 60,
    // Nothing to say but the path: a body, if any, is not read.
    body: 'ignored',
    throttle: { rate: 5, burst: 10 },
  },
  {
    ...webhookRead,
    method: 'GET',
    path: '/v1/webhooks/endpoint',
    endpoint: 'webhook-endpoint-get',
    limitPerMinute: 300,
    throttle: { rate: 20, burst: 40 },
  },

  { ...embed, method: 'GET', path: '/embedded/{partnerId}', throttle: { rate: 50, burst: 100 } },
  { ...embed, method: 'POST', path: '/embedded/{partnerId}/logout', throttle: { rate: 10, burst: 20 } },
  // The procurement module (docs/module.md): pages are GETs, every change a form POST.
  { ...page, method: 'GET', path: '/embedded/{partnerId}/products/{productId}' },
  { ...page, method: 'GET', path: '/embedded/{partnerId}/cart' },
  { ...page, method: 'POST', path: '/embedded/{partnerId}/cart/items' },
  { ...page, method: 'POST', path: '/embedded/{partnerId}/cart/items/{productId}' },
  { ...page, method: 'GET', path: '/embedded/{partnerId}/checkout' },
  { ...page, method: 'GET', path: '/embedded/{partnerId}/orders' },
  // Placing an order writes a transaction: the lowest of the module's routes.
  { ...embed, method: 'POST', path: '/embedded/{partnerId}/orders', throttle: { rate: 20, burst: 40 } },
  { ...page, method: 'GET', path: '/embedded/{partnerId}/orders/{orderId}' },
  // Buy again writes up to 50 cart lines: a click, not a stream.
  {
    ...embed,
    method: 'POST',
    path: '/embedded/{partnerId}/orders/{orderId}/buy-again',
    throttle: { rate: 20, burst: 40 },
  },
  // Approval requests (docs/module.md, "Approvals"): submitting writes a transaction like placing an order, and so
  // do the decisions (an approval places the order); the requester's and approvers' pages are pages.
  { ...embed, method: 'POST', path: '/embedded/{partnerId}/approvals', throttle: { rate: 20, burst: 40 } },
  { ...page, method: 'GET', path: '/embedded/{partnerId}/approvals' },
  { ...page, method: 'GET', path: '/embedded/{partnerId}/approvals/{requestId}' },
  {
    ...embed,
    method: 'POST',
    path: '/embedded/{partnerId}/approvals/{requestId}/approve',
    throttle: { rate: 20, burst: 40 },
  },
  {
    ...embed,
    method: 'POST',
    path: '/embedded/{partnerId}/approvals/{requestId}/reject',
    throttle: { rate: 20, burst: 40 },
  },
  {
    ...embed,
    method: 'POST',
    path: '/embedded/{partnerId}/approvals/{requestId}/withdraw',
    throttle: { rate: 20, burst: 40 },
  },
  // The organization's order guide: the page, its one form, and the catalog cards' add.
  { ...page, method: 'GET', path: '/embedded/{partnerId}/order-guide' },
  { ...page, method: 'POST', path: '/embedded/{partnerId}/order-guide' },
  { ...page, method: 'POST', path: '/embedded/{partnerId}/order-guide/items' },
  // The host SDK and the module bridge (docs/embedding.md): browsers cache the SDK for a year and the bridge for
  // five minutes, so these are mostly first visits. The frame check: one per mount of the SDK on another origin.
  { ...embed, method: 'GET', path: '/sdk/v1/embed.js', throttle: { rate: 50, burst: 100 } },
  { ...embed, method: 'GET', path: '/embedded/assets/bridge-v1.js', throttle: { rate: 50, burst: 100 } },
  // The module pages' own script (apply on change, checkout's totals), cached like the bridge.
  { ...embed, method: 'GET', path: '/embedded/assets/module-v1.js', throttle: { rate: 50, burst: 100 } },
  // Product pictures from the stack's bucket, by content key (immutable): same origin as the pages, so their CSP stays
  // `img-src 'self'`. A catalog page shows up to 24 pictures; browsers keep each for a year.
  { ...embed, method: 'GET', path: '/embedded/assets/products/{imageKey}', throttle: { rate: 200, burst: 400 } },
  { ...embed, method: 'GET', path: '/embedded/{partnerId}/frame-check', throttle: { rate: 50, burst: 100 } },
] as const satisfies readonly Route[];

type Row = (typeof ROUTES)[number];

/** API Gateway's route key, e.g. `GET /v1/orders/{order_id}`: the event's `routeKey`. */
type RouteKeyOf<R> = R extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
export type ApiRouteKey = RouteKeyOf<Extract<Row, { host: 'api' }>>;
/** The route keys a function serves. */
export type FunctionRouteKey<F extends HttpFunctionName> = RouteKeyOf<Extract<Row, { fn: F }>>;

export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** The table's row for an API route. */
export function apiRoute(key: ApiRouteKey, table: readonly Route[] = ROUTES): ApiRoute {
  const row = table.find((candidate): candidate is ApiRoute => candidate.host === 'api' && routeKey(candidate) === key);
  if (!row) throw new Error(`No API route ${key} in the route table`);
  return row;
}

/** The routes a stage serves: production has no sandbox-only routes at all. */
export const routesOn = (stage: Stage, table: readonly Route[] = ROUTES): readonly Route[] =>
  table.filter((route) => stage === 'sandbox' || !(route.host === 'api' && route.sandboxOnly));
