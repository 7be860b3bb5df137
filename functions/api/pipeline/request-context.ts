import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult } from './api-context';

/**
 * Runs first: resolves the dependencies, assigns the request id and stamps it on
 * every response, success or failure (its `after`/`onError` run last).
 */
export const requestContext = <D>(getDependencies: () => Promise<D>): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<D>> => {
  const stamp = (request: { context: ApiContext<D>; response: ApiResult | null }) => {
    const { requestId } = request.context;
    if (request.response && requestId) {
      request.response.headers = { ...request.response.headers, 'Request-Id': requestId };
    }
  };
  return {
    before: async (request) => {
      request.context.startedAt = Date.now();
      request.context.requestId = request.event.requestContext?.requestId || randomUUID();
      request.context.deps = await getDependencies();
    },
    after: stamp,
    onError: stamp,
  };
};
