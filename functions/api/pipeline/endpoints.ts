import type { Scope } from '../../domain/partners/partner';

/** How each partner API endpoint authenticates, what it may do and how fast (contract: Authentication, Limits). */
export interface ApiEndpoint {
  /** Names the endpoint in the request log and keys its rate-limit window. */
  readonly name: ApiEndpointName;
  /** The one header this endpoint reads the key from; the other one is a 401. */
  readonly credential: 'authorization-bearer' | 'x-api-key';
  readonly scope: Scope;
  readonly limitPerMinute: number;
  /**
   * The handler runs while the request is being counted and settles the count itself
   * before its first write (`ApiRequest.admitted`): its reads overlap the count instead of
   * following it. Otherwise the count is settled before the handler starts.
   */
  readonly countsConcurrently?: boolean;
  /**
   * What the endpoint does with a request body: `required` (a JSON object), `optional`
   * (an empty body is `{}`), `ignored` (GET routes: never read). Default `required`.
   */
  readonly body?: 'required' | 'optional' | 'ignored';
}

export type ApiEndpointName =
  | 'setup'
  | 'handshake'
  | 'catalog-products'
  | 'order-get'
  | 'order-list'
  | 'sandbox-order-create'
  | 'sandbox-order-transition'
  | 'webhook-test'
  // The partner's changes after setup (docs/setup.md): one group, ported to the route table as one.
  | 'organization-user-get'
  | 'organization-user-update'
  | 'shipping-location-create'
  | 'shipping-location-update';

export const SETUP_ENDPOINT: ApiEndpoint = {
  name: 'setup',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
  countsConcurrently: true,
};

export const HANDSHAKE_ENDPOINT: ApiEndpoint = {
  name: 'handshake',
  credential: 'x-api-key',
  scope: 'session:write',
  limitPerMinute: 300,
  countsConcurrently: true,
};

/**
 * The order API (docs/orders-api.md). Reads are for reconciliation after missed
 * webhooks, so they get the handshake's budget; the catalog changes rarely and is
 * cached by callers; the sandbox writes get setup's.
 */
export const CATALOG_PRODUCTS_ENDPOINT: ApiEndpoint = {
  name: 'catalog-products',
  credential: 'authorization-bearer',
  scope: 'orders:read',
  limitPerMinute: 60,
  body: 'ignored',
};

export const ORDER_GET_ENDPOINT: ApiEndpoint = {
  name: 'order-get',
  credential: 'authorization-bearer',
  scope: 'orders:read',
  limitPerMinute: 300,
  body: 'ignored',
};

export const ORDER_LIST_ENDPOINT: ApiEndpoint = {
  name: 'order-list',
  credential: 'authorization-bearer',
  scope: 'orders:read',
  limitPerMinute: 300,
  body: 'ignored',
};

export const SANDBOX_ORDER_CREATE_ENDPOINT: ApiEndpoint = {
  name: 'sandbox-order-create',
  credential: 'authorization-bearer',
  scope: 'orders:write',
  limitPerMinute: 100,
  countsConcurrently: true,
};

/** The five actions (confirm, ship, deliver, cancel, refund) share one window. */
export const SANDBOX_ORDER_TRANSITION_ENDPOINT: ApiEndpoint = {
  name: 'sandbox-order-transition',
  credential: 'authorization-bearer',
  scope: 'orders:write',
  limitPerMinute: 100,
  body: 'optional',
  countsConcurrently: true,
};

/**
 * `POST /v1/webhooks/test` (sandbox only): a sample webhook through the real pipeline. It
 * takes `orders:write`, the sandbox's "make my webhooks fire" scope (docs/decisions.md);
 * each request is one outbound POST to the partner, so its limit is below the order writes'.
 */
export const WEBHOOK_TEST_ENDPOINT: ApiEndpoint = {
  name: 'webhook-test',
  credential: 'authorization-bearer',
  scope: 'orders:write',
  limitPerMinute: 60,
};

// ---- The partner's users and shipping locations after setup (docs/setup.md), served by the setup function.
// Each route has setup's scope and budget in a window of its own, so syncing users never starves provisioning.

export const ORGANIZATION_USER_GET_ENDPOINT: ApiEndpoint = {
  name: 'organization-user-get',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
  body: 'ignored',
};

export const ORGANIZATION_USER_UPDATE_ENDPOINT: ApiEndpoint = {
  name: 'organization-user-update',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
};

export const SHIPPING_LOCATION_CREATE_ENDPOINT: ApiEndpoint = {
  name: 'shipping-location-create',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
};

export const SHIPPING_LOCATION_UPDATE_ENDPOINT: ApiEndpoint = {
  name: 'shipping-location-update',
  credential: 'authorization-bearer',
  scope: 'organization:write',
  limitPerMinute: 100,
};
// ---- end of the partner's users and shipping locations

/** Request bodies above this are refused before parsing (DESIGN.md: size limits). */
export const MAX_BODY_BYTES = 64 * 1024;
