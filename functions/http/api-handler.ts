import middy from '@middy/core';
import type { Caller } from '../domain/access/authenticator';
import type { ApiDependencies } from '../composition/api-access';
import type { ApiContext, ApiEvent, ApiResult, HttpLambda } from './api-context';
import type { ApiEndpoint } from './endpoints';
import { apiKeyAuth } from './middlewares/api-key-auth';
import { errorResponder } from './middlewares/error-responder';
import { jsonBody } from './middlewares/json-body';
import { requestContext } from './middlewares/request-context';
import { requestLog } from './middlewares/request-log';
import type { JsonResponse } from './responses';

export interface ApiRequest<D extends ApiDependencies = ApiDependencies> {
  readonly event: ApiEvent;
  readonly body: Record<string, unknown>;
  readonly caller: Caller;
  readonly requestId: string;
  readonly deps: D;
}

/**
 * The partner API pipeline, composed once. `before` runs top to bottom (context, auth
 * and rate limit, body); `after`/`onError` run bottom to top, so the error responder
 * shapes the response before the log line and the Request-Id header see it.
 */
export function apiHandler<D extends ApiDependencies>(
  endpoint: ApiEndpoint,
  getDependencies: () => Promise<D>,
  handle: (request: ApiRequest<D>) => Promise<JsonResponse>,
): HttpLambda {
  const handler = middy<ApiEvent, ApiResult, Error, ApiContext<D>>()
    .use(requestContext(getDependencies))
    .use(requestLog(endpoint.name))
    .use(errorResponder(endpoint.name))
    .use(apiKeyAuth(endpoint))
    .use(jsonBody())
    .handler(async (event, context) =>
      handle({
        event,
        body: context.body as Record<string, unknown>,
        caller: context.caller as Caller,
        requestId: context.requestId,
        deps: context.deps,
      }),
    );
  // The pipeline fills in the ApiContext fields itself; Lambda hands it a plain Context.
  return handler as unknown as HttpLambda;
}
