/**
 * THE route table: every HTTP route of the partner API and the embed host, declared once
 * (its rows in functions/api-routes.ts and functions/embed-routes.ts, its lookups here).
 *
 * The CDK stack (lib/infrastructure/constructs/api.ts), the local gateway
 * (lib/local-runtime/local-stack.ts), the API pipeline (credential, scope, limit, body,
 * error shape, sandbox-only), the routing inside multi-route functions and the partner
 * API document (lib/api-docs/, with each route's document from
 * functions/api/openapi/partner-api.ts) all read it, so a route missing here is missing
 * everywhere. Plain data: Lambda code, CDK and the local runtime all import it, so it
 * imports no handler, middleware, schema or AWS code.
 */
import type { Stage } from './resources/stages';
import type { ApiRouteName, SignedRouteName } from './route-names';
import { API_ROUTES } from './api-routes';
import { EMBED_ROUTES } from './embed-routes';
import type { ApiRoute, Route, SignedRoute } from './route-types';

export type { ApiEndpointName, ApiRoute, ErrorShape, Route, SignedRoute } from './route-types';

const joined = <A extends readonly Route[], B extends readonly Route[]>(a: A, b: B): readonly [...A, ...B] => [
  ...a,
  ...b,
];

/**
 * The partner API's rows (functions/api-routes.ts), then the embed host's (functions/embed-routes.ts). Marked pure
 * so that a bundle that never reads the table (the handshake's, which reads its own row) leaves it out.
 */
export const ROUTES = /* @__PURE__ */ joined(API_ROUTES, EMBED_ROUTES);

/** API Gateway's route key, e.g. `GET /v1/orders/{order_id}`: the event's `routeKey`. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** The table's row for an API route. */
export function apiRoute(name: ApiRouteName, table: readonly Route[] = ROUTES): ApiRoute {
  const row = table.find((candidate): candidate is ApiRoute => isPartnerRoute(candidate) && candidate.name === name);
  if (!row) throw new Error(`No API route ${name} in the route table`);
  return row;
}

/** A partner's route (a key in its one header), as opposed to Stripe's signed one. */
export const isPartnerRoute = (route: Route): route is ApiRoute =>
  route.host === 'api' && route.credential !== 'stripe-signature';

/** The table's row for a route whose caller signs its body (Stripe's). */
export function signedRoute(name: SignedRouteName, table: readonly Route[] = ROUTES): SignedRoute {
  const row = table.find(
    (candidate): candidate is SignedRoute =>
      candidate.host === 'api' && candidate.credential === 'stripe-signature' && candidate.name === name,
  );
  if (!row) throw new Error(`No signed route ${name} in the route table`);
  return row;
}

/** The routes a stage serves: production has no sandbox-only routes at all. */
export const routesOn = (stage: Stage, table: readonly Route[] = ROUTES): readonly Route[] =>
  table.filter((route) => stage === 'sandbox' || !(route.host === 'api' && route.sandboxOnly));
