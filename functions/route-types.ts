/** The route table's types (functions/routes.ts): what a row says. */
import type { Scope } from './domain/partners/partner';
import type { HttpFunctionName } from './resources/resource-definitions';

/** Names the endpoint in the request log and keys its rate-limit window (routes that share a window share a name). */
export type ApiEndpointName =
  | 'setup'
  | 'handshake'
  | 'catalog-products'
  | 'order-get'
  | 'order-list'
  | 'invoice-get'
  | 'invoice-list'
  | 'sandbox-order-create'
  | 'sandbox-order-transition'
  | 'webhook-test'
  | 'organization-get'
  | 'organization-update'
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
  | 'organization-spend'
  | 'organization-statement'
  | 'sandbox-approval-decision'
  | 'sandbox-invoice-action'
  | 'stripe-events';

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
  /**
   * The route's own name, unique in the table: handlers, route documents and the module's
   * links find a route by it, so its method and path are written here only.
   */
  readonly name: string;
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

/**
 * A route on the partner API's host whose caller is not a partner: Stripe, which signs
 * the exact body bytes (`Stripe-Signature`). No key, scope or per-partner budget; the
 * handler gets the raw body and verifies it before anything is read or written.
 */
export interface SignedRoute extends RouteBase {
  readonly host: 'api';
  readonly endpoint: ApiEndpointName;
  readonly credential: 'stripe-signature';
  readonly body: 'raw';
  readonly errors: ErrorShape;
  readonly sandboxOnly: false;
}

interface EmbedRoute extends RouteBase {
  readonly host: 'embed';
}

export type Route = ApiRoute | SignedRoute | EmbedRoute;

/**
 * A table's rows, written in a function. Called `/* @__PURE__ *\/`, so that esbuild drops a table no code of a bundle
 * reads (the handshake's reads its own row): the rows spread shared parts (`...orderRead`), which esbuild cannot
 * prove free of side effects when they stand at the top of a module, but a function not called is.
 */
export const routeRows = <R extends readonly Route[]>(rows: () => R): R => rows();
