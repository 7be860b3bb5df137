import middy from '@middy/core';
import { EmbedAccessDenied } from '../domain/errors';
import { isPartnerId, type PartnerId } from '../domain/partners/partner';
import { type HttpContext, type HttpEvent, type HttpResult, filledIn, type HttpLambda } from '../http/http-context';
import { embedErrorResponder } from './error-responder';
import { embedSecurityHeaders } from './security-headers';
import { inRequestScope, requestContext } from '../http/request-context';
import { requestLog } from '../http/request-log';
import type { HttpDependencies } from '../http/http-dependencies';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import type { HttpResponse } from '../http/responses';

/** The embed host: the partner named in the path decides who may frame the page. */
export interface EmbedHostDependencies extends HttpDependencies {
  readonly partners: Pick<PartnerRepository, 'getPartner'>;
  readonly config: { readonly DEFAULT_FRAME_ANCESTORS: readonly string[] };
}

export interface EmbedContext<D> extends HttpContext<D> {
  /** The partner's frame-ancestors sources, read while the handler runs (embed-security-headers.ts). */
  frameAncestors?: Promise<readonly string[]>;
}

export interface EmbedRequest<D> {
  readonly event: HttpEvent;
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
  handle: (request: EmbedRequest<D>) => Promise<HttpResponse>,
): HttpLambda {
  const lambda = middy<HttpEvent, HttpResult, Error, EmbedContext<D>>()
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
