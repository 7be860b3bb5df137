import type { HttpFunctionName } from '../../resources/resource-definitions';
import { type FunctionRouteName, routeNameOf } from '../../route-names';
import type { HttpEvent, HttpResult, HttpLambda } from '../../http/http-context';

/** What API Gateway answers for a route it does not have. */
export const routeNotFound = (): HttpResult => ({
  statusCode: 404,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ message: 'Not Found' }),
});

/**
 * One Lambda behind several routes: API Gateway names the matched route in `routeKey`
 * (`GET /v1/orders/{order_id}`), the route table names it, and each route has its own
 * pipeline under that name. The function's routes are the route table's rows naming it,
 * so a row without a pipeline here does not compile. A route the function does not serve
 * answers as API Gateway would for a missing one.
 */
export function routedHandler<F extends HttpFunctionName>(
  _fn: F,
  routes: Readonly<Record<FunctionRouteName<F>, HttpLambda>>,
): HttpLambda {
  const byName: Readonly<Record<string, HttpLambda>> = routes;
  return (event: HttpEvent, context) => {
    const name = routeNameOf(event.routeKey);
    const route = name !== undefined && Object.hasOwn(byName, name) ? byName[name] : undefined;
    return route ? route(event, context) : Promise.resolve(routeNotFound());
  };
}
