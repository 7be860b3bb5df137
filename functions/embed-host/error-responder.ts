import type { MiddlewareObj } from '@middy/core';
import type { ApiEvent, ApiResult } from '../api/pipeline/api-context';
import type { EmbedContext } from './embed-pipeline';
import { embedErrorResponse } from '../api/pipeline/error-responses';
import { moduleFailureResponse } from './module/failure-page';

/**
 * Turns any embed failure into its HTML page; details stay in the log. The module's own
 * failures (an empty cart, a forged form, an order of another organization...) get pages
 * that say what to do next; everything else is the embed host's.
 */
export const embedErrorResponder = <D>(): MiddlewareObj<ApiEvent, ApiResult, Error, EmbedContext<D>> => ({
  onError: async (request) => {
    // A failed read of the partner's origins frames the error page for no one.
    const frameAncestors = await (request.context.frameAncestors ?? Promise.resolve([])).catch((): readonly string[] => []);
    request.response =
      moduleFailureResponse(request.error, request.event.pathParameters?.partnerId ?? '', frameAncestors) ??
      embedErrorResponse(request.error, frameAncestors);
  },
});
