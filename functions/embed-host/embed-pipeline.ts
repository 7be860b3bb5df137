import middy from '@middy/core';
import { EmbedAccessDenied } from '../domain/errors';
import { isPartnerId, type PartnerId } from '../domain/partners/partner';
import { type ApiContext, type ApiEvent, type ApiResult, filledIn, type HttpLambda } from '../api/pipeline/api-context';
import { embedErrorResponder } from './error-responder';
import { embedSecurityHeaders } from './security-headers';
import { inRequestScope, requestContext } from '../api/pipeline/request-context';
import { requestLog } from '../api/pipeline/request-log';
import type { EmbedHostDependencies } from '../api/pipeline/pipeline-dependencies';
import type { JsonResponse } from '../api/pipeline/responses';

export interface EmbedContext<D> extends ApiContext<D> {
  /** The partner's frame-ancestors sources, read while the handler runs (embed-security-headers.ts). */
  frameAncestors?: Promise<readonly string[]>;
}

export interface EmbedRequest<D> {
  readonly event: ApiEvent;
  /** From the path: unauthenticated, so it only ever narrows what a token or cookie may do. */
  readonly partnerId: PartnerId;
  readonly deps: D;
  /** The partner's frame-ancestors sources (the CSP's), for the module bridge and the frame check. */
  readonly frameAncestors: readonly string[];
}

/**
 * The embed host pipeline: request id and log as on the API, then the security headers
 * every embed response carries, then failures as HTML pages. `after`/`onError` run bottom
 * to top, so the headers land on error pages too.
 */
export function embedHandler<D extends EmbedHostDependencies>(
  getDependencies: () => Promise<D>,
  handle: (request: EmbedRequest<D>) => Promise<JsonResponse>,
): HttpLambda {
  const lambda = middy<ApiEvent, ApiResult, Error, EmbedContext<D>>()
    .use(requestContext(getDependencies))
    .use(requestLog<D>('embed'))
    .use(embedSecurityHeaders<D>())
    .use(embedErrorResponder<D>())
    .handler(async (event, context) => {
      // UUIDs are case-insensitive; ours are stored, and put in every iframe_embed_url, in lower case.
      const partnerId = (event.pathParameters?.partnerId ?? '').toLowerCase();
      if (!isPartnerId(partnerId)) throw new EmbedAccessDenied('link', 'the path names no partner');
      // The partner's origins were being read while the route started; the pages render them into the bridge's attributes.
      return handle({
        event,
        partnerId,
        deps: filledIn(context.deps, 'deps'),
        frameAncestors: await (context.frameAncestors ?? []),
      });
    });
  return inRequestScope(lambda);
}
