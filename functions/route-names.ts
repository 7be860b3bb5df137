/**
 * Routes by name: every row of the route table (functions/routes.ts) has one, and the
 * handlers, route documents and the module's links find a route by it, so its method and
 * path are written in the table only.
 */
import type { HttpFunctionName } from './resources/resource-definitions';
import { ROUTES, routeKey } from './routes';

type Row = (typeof ROUTES)[number];

export type RouteName = Row['name'];
/** The partner API's routes (a partner's key); Stripe's signed route is a SignedRouteName. */
export type ApiRouteName = Exclude<Extract<Row, { host: 'api' }>, { credential: 'stripe-signature' }>['name'];
export type SignedRouteName = Extract<Row, { credential: 'stripe-signature' }>['name'];
/** The names of the routes a function serves. */
export type FunctionRouteName<F extends HttpFunctionName> = Extract<Row, { fn: F }>['name'];

/** Built on first use, not at import: a bundle that never routes by key (the handshake's) then carries no table. */
let byKey: ReadonlyMap<string, RouteName> | undefined;

/** The name of the route API Gateway matched (the event's `routeKey`); undefined for a key the table has not got. */
export const routeNameOf = (key: string): RouteName | undefined =>
  (byKey ??= new Map(ROUTES.map((route) => [routeKey(route), route.name]))).get(key);

/** The `{name}` parameters of a path, e.g. `'partnerId' | 'orderId'`. */
type PathParameter<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameter<Rest>
  : never;
type PathParameters<N extends RouteName> = Readonly<Record<PathParameter<Extract<Row, { name: N }>['path']>, string>>;

/** A route's address with its path parameters filled in (each URI-encoded): where a page's link or form goes. */
export function routePath<N extends RouteName>(name: N, parameters: PathParameters<N>): string {
  const row = ROUTES.find((candidate) => candidate.name === name);
  if (!row) throw new Error(`No route ${name} in the route table`);
  const values: Readonly<Record<string, string>> = parameters;
  return row.path.replace(/\{(\w+)\}/g, (_, parameter: string) => {
    const value = values[parameter];
    if (value === undefined) throw new Error(`${name} needs its path parameter ${parameter}`);
    return encodeURIComponent(value);
  });
}
