import type { MiddlewareObj } from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult } from './api-context';
import type { ApiEndpoint } from './endpoints';
import { errorResponse } from './error-responses';
import { settleAdmission } from './admission';
import { rateLimitHeaders } from './responses';

/** Turns any failure into the endpoint's contract body; unknown failures never leak their details. */
export const errorResponder = <D>(endpoint: ApiEndpoint['name']): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<D>> => ({
  onError: async (request) => {
    // The count was under way when the handler failed: its refusal (or failure) is the answer.
    const error = await settleAdmission(request.context).then(
      () => request.error,
      (refusal: Error) => refusal,
    );
    const response = errorResponse(error, endpoint);
    const limit = request.context.rateLimit;
    request.response = limit ? { ...response, headers: { ...rateLimitHeaders(limit), ...response.headers } } : response;
  },
});
