import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { correlate, withCorrelation } from '../domain/correlation';
import type { HttpContext, HttpEvent, HttpResult, HttpLambda } from './http-context';
import type { HttpDependencies } from './http-dependencies';

/**
 * Runs first: resolves the dependencies, assigns the request id and stamps it on
 * every response, success or failure (its `after`/`onError` run last). The request id
 * (and, on the embed host, the partner in the path) goes into the request's correlation
 * scope, so every line the request writes carries it; Lambda's context gives the logger
 * the invocation's own request id and cold start.
 */
export const requestContext = <D extends Partial<HttpDependencies>>(
  getDependencies: () => Promise<D>,
): MiddlewareObj<HttpEvent, HttpResult, Error, HttpContext<D>> => {
  const stamp = (request: { context: HttpContext<D>; response: HttpResult | null }) => {
    const { requestId } = request.context;
    if (request.response && requestId) {
      request.response.headers = { ...request.response.headers, 'Request-Id': requestId };
    }
  };
  return {
    before: async (request) => {
      request.context.startedAt = Date.now();
      request.context.requestId = request.event.requestContext?.requestId || randomUUID();
      correlate({ requestId: request.context.requestId, partnerId: request.event.pathParameters?.partnerId });
      request.context.deps = await getDependencies();
      if (request.context.awsRequestId) request.context.deps.logger?.addContext?.(request.context);
    },
    after: stamp,
    onError: stamp,
  };
};

/** Runs a request in a correlation scope of its own (domain/correlation.ts): wraps every HTTP function's pipeline. */
export const inRequestScope =
  (handler: HttpLambda): HttpLambda =>
  (event, context) =>
    withCorrelation({}, () => handler(event, context));
