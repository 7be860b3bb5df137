import middy, { type MiddlewareObj } from '@middy/core';
import type { Caller } from '../../domain/access/authenticator';
import type { IdempotentAttempt } from '../../domain/idempotency/idempotency-guard';
import type { ApiRouteName } from '../../route-names';
import { type ApiRoute, apiRoute } from '../../routes';
import { type HttpEvent, type HttpResult, filledIn, type HttpLambda } from '../../http/http-context';
import type { ApiContext } from './api-context';
import { idempotencyKey, replayed } from './idempotency-key';
import { apiKeyAuth } from './api-key-auth';
import { errorResponder } from './error-responder';
import { jsonBody } from './json-body';
import { pathParameters } from './path-parameters';
import { inRequestScope, requestContext } from '../../http/request-context';
import { requestLog } from '../../http/request-log';
import type { ApiAccessDependencies, IdempotencyDependencies } from './pipeline-dependencies';
import type { HttpResponse } from '../../http/responses';
import { sandboxOnlyRoute } from './sandbox-only-route';

interface ApiRequest<D> {
  readonly event: HttpEvent;
  readonly body: Record<string, unknown>;
  readonly caller: Caller;
  readonly requestId: string;
  readonly deps: D;
  /** The first run of a request's Idempotency-Key, for a handler whose work completes it in its own transaction. */
  readonly idempotency?: Extract<IdempotentAttempt, { kind: 'first' }>;
}

type Handle<D> = (request: ApiRequest<D>) => Promise<HttpResponse>;
type Middleware<D> = MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>>;

/** The partner API pipeline for a route of the route table (functions/routes.ts) without Idempotency-Key support. */
export const apiHandler = <D extends ApiAccessDependencies>(
  name: ApiRouteName,
  getDependencies: () => Promise<D>,
  handle: Handle<D>,
): HttpLambda => apiRouteHandler(apiRoute(name), getDependencies, handle);

/**
 * The same pipeline from the route's row itself: for a function serving one route (the handshake), whose bundle then
 * carries that row and not the whole route table.
 */
export const apiRouteHandler = <D extends ApiAccessDependencies>(
  route: ApiRoute,
  getDependencies: () => Promise<D>,
  handle: Handle<D>,
): HttpLambda => pipeline(route, getDependencies, handle, { aroundErrors: [], last: [] });

/** The partner API pipeline for a route that honours the `Idempotency-Key` header. */
export function idempotentApiHandler<D extends IdempotencyDependencies>(
  name: ApiRouteName,
  getDependencies: () => Promise<D>,
  handle: Handle<D>,
): HttpLambda {
  const route = apiRoute(name);
  const { claim, settlement } = idempotencyKey<D>(route.endpoint);
  return pipeline(route, getDependencies, handle, { aroundErrors: [settlement], last: [claim] });
}

/**
 * The partner API pipeline, composed once from the route's row. `before` runs top to
 * bottom (context, auth and rate limit, path parameters, body); `after`/`onError` run bottom to top, so the
 * error responder shapes the response before the log line and the Request-Id header see
 * it. A route's own middlewares go just above the error responder (`aroundErrors`: they
 * see its response) or at the end (`last`: they see the caller and the body).
 */
function pipeline<D extends ApiAccessDependencies>(
  route: ApiRoute,
  getDependencies: () => Promise<D>,
  handle: Handle<D>,
  extra: { aroundErrors: Middleware<D>[]; last: Middleware<D>[] },
): HttpLambda {
  const middlewares: Middleware<D>[] = [
    requestContext(getDependencies),
    requestLog(route.endpoint),
    ...extra.aroundErrors,
    errorResponder(route.errors),
    apiKeyAuth(route),
    pathParameters(route),
    jsonBody(route.body),
    ...extra.last,
  ];
  const lambda = middy<HttpEvent, HttpResult, Error, ApiContext<D>>()
    .use(middlewares)
    .handler(async (event, context) => {
      if (context.idempotency?.kind === 'replay') return replayed(context.idempotency.outcome);
      return handle({
        event,
        body: filledIn(context.body, 'body'),
        caller: filledIn(context.caller, 'caller'),
        requestId: filledIn(context.requestId, 'requestId'),
        deps: filledIn(context.deps, 'deps'),
        ...(context.idempotency ? { idempotency: context.idempotency } : {}),
      });
    });
  return inRequestScope(route.sandboxOnly ? sandboxOnlyRoute(getDependencies, lambda) : lambda);
}
