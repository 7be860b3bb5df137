import type { MiddlewareObj } from '@middy/core';
import type { ApiEvent, ApiResult } from '../api-context';
import type { EmbedContext } from '../embed-handler';
import { embedErrorResponse } from '../error-responses';

/** Turns any embed failure into its HTML page; details stay in the log. */
export const embedErrorResponder = <D>(): MiddlewareObj<ApiEvent, ApiResult, Error, EmbedContext<D>> => ({
  onError: (request) => {
    request.response = embedErrorResponse(request.error);
  },
});
