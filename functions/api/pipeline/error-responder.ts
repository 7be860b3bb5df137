import type { MiddlewareObj } from '@middy/core';
import { apiOutcome } from '../../error-outcomes';
import type { ErrorShape } from '../../routes';
import type { HttpEvent, HttpResult } from '../../http/http-context';
import type { ApiContext } from './api-context';
import { json, rateLimitHeaders } from '../../http/responses';

/**
 * Turns any failure into the route's contract body (functions/error-outcomes/, in the
 * shape its row in functions/routes.ts declares); unknown failures become the route's 500
 * and never leak their details (the request log keeps them).
 */
export const errorResponder = <D>(errors: ErrorShape): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>> => ({
  onError: async (request) => {
    const outcome = apiOutcome(request.error, errors);
    const limit = request.context.rateLimit;
    request.response = json(outcome.status, outcome.body, {
      ...(limit ? rateLimitHeaders(limit) : {}),
      ...outcome.headers,
    });
  },
});
