import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { Dependencies } from '../../container';
import type { ApiContext, ApiEvent, ApiResult } from '../api-context';

/**
 * Runs first: resolves the dependencies, assigns the request id and stamps it on
 * every response, success or failure (its `after`/`onError` run last).
 */
export const requestContext = (
  getDependencies: () => Promise<Dependencies>,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const stamp = (request: { context: ApiContext; response: ApiResult | null }) => {
    if (request.response) {
      request.response.headers = { ...request.response.headers, 'Request-Id': request.context.requestId };
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
