import middy from '@middy/core';
import type { EmbedDependencies } from '../composition/embed';
import { EmbedAccessDenied } from '../domain/errors';
import { isPartnerId, type PartnerId } from '../domain/partners/partner';
import type { ApiContext, ApiEvent, ApiResult, HttpLambda } from './api-context';
import { embedErrorResponder } from './middlewares/embed-error-responder';
import { embedSecurityHeaders } from './middlewares/embed-security-headers';
import { requestContext } from './middlewares/request-context';
import { requestLog } from './middlewares/request-log';
import type { JsonResponse } from './responses';

export interface EmbedContext extends ApiContext<EmbedDependencies> {
  /** The partner's frame-ancestors sources, resolved before the handler runs. */
  frameAncestors?: readonly string[];
}

export interface EmbedRequest {
  readonly event: ApiEvent;
  /** From the path: unauthenticated, so it only ever narrows what a token or cookie may do. */
  readonly partnerId: PartnerId;
  readonly deps: EmbedDependencies;
}

/**
 * The embed host pipeline: request id and log as on the API, then the security headers
 * every embed response carries, then failures as HTML pages. `after`/`onError` run bottom
 * to top, so the headers land on error pages too.
 */
export function embedHandler(
  getDependencies: () => Promise<EmbedDependencies>,
  handle: (request: EmbedRequest) => Promise<JsonResponse>,
): HttpLambda {
  const handler = middy<ApiEvent, ApiResult, Error, EmbedContext>()
    .use(requestContext(getDependencies))
    .use(requestLog('embed'))
    .use(embedSecurityHeaders())
    .use(embedErrorResponder())
    .handler(async (event, context) => {
      const partnerId = event.pathParameters?.partnerId ?? '';
      if (!isPartnerId(partnerId)) throw new EmbedAccessDenied('link', 'the path names no partner');
      return handle({ event, partnerId, deps: context.deps });
    });
  return handler as unknown as HttpLambda;
}
