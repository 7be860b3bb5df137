import type { MiddlewareObj } from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult } from '../api-context';
import type { ApiEndpoint } from '../endpoints';
import { errorResponse } from '../error-responses';
import { rateLimitHeaders } from '../responses';

/** Turns any failure into the endpoint's contract body; unknown failures never leak their details. */
export const errorResponder = <D>(endpoint: ApiEndpoint['name']): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<D>> => ({
  onError: (request) => {
    const response = errorResponse(request.error, endpoint);
    const limit = request.context.rateLimit;
    request.response = limit ? { ...response, headers: { ...rateLimitHeaders(limit), ...response.headers } } : response;
  },
});
