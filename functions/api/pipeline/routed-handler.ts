import type { ApiEvent, ApiResult, HttpLambda } from './api-context';

/** What API Gateway answers for a route it does not have. */
export const routeNotFound = (): ApiResult => ({
  statusCode: 404,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ message: 'Not Found' }),
});

/**
 * One Lambda behind several routes: API Gateway names the matched route in `routeKey`
 * (`GET /v1/orders/{order_id}`), and each route has its own pipeline. A route the
 * function does not serve answers as API Gateway would for a missing one.
 */
export function routedHandler(routes: Readonly<Record<string, HttpLambda>>): HttpLambda {
  return (event: ApiEvent, context) => {
    const route = Object.hasOwn(routes, event.routeKey) ? routes[event.routeKey] : undefined;
    return route ? route(event, context) : Promise.resolve(routeNotFound());
  };
}
