import type { MiddlewareObj } from '@middy/core';
import { isPartnerId } from '../domain/partners/partner';
import { type HttpEvent, type HttpResult, filledIn } from '../http/http-context';
import type { EmbedContext } from './embed-pipeline';
import { frameAncestorSources } from './frame-ancestor-sources';
import type { EmbedHostDependencies } from './embed-pipeline';

/**
 * The pages allow only their own inline style, the bridge script and the product pictures
 * from our own origin (no inline script, no other images) and same-origin form posts;
 * framing is the partner's allow-list.
 */
function contentSecurityPolicy(frameAncestors: readonly string[]): string {
  const sources = frameAncestorSources(frameAncestors);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "img-src 'self'",
    "style-src 'unsafe-inline'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${sources.length ? sources.join(' ') : "'none'"}`,
  ].join('; ');
}

/**
 * Every embed response, pages and failures alike, carries the partner's frame-ancestors
 * (its allowed origins, else the environment default; `'none'` for an unknown partner)
 * and headers that keep the page out of caches, Referers and MIME sniffing.
 *
 * The partner is read while the handler runs (its answer is only needed for the headers),
 * so the read does not add its round trip to every page. A failed read still fails the
 * request: `after` rethrows it, and the error page that follows gets `'none'`.
 */
export const embedSecurityHeaders = <D extends EmbedHostDependencies>(): MiddlewareObj<
  HttpEvent,
  HttpResult,
  Error,
  EmbedContext<D>
> => {
  const apply = (request: { response: HttpResult | null }, frameAncestors: readonly string[]) => {
    if (!request.response) return;
    request.response.headers = {
      ...request.response.headers,
      'Content-Security-Policy': contentSecurityPolicy(frameAncestors),
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    };
  };
  return {
    before: (request) => {
      const deps = filledIn(request.context.deps, 'deps');
      const partnerId = request.event.pathParameters?.partnerId;
      // A path that is no partner id (say, 2 KB of junk) is an unknown partner, not a key DynamoDB would refuse.
      const pending = (async () => {
        const partner = partnerId && isPartnerId(partnerId) ? await deps.partners.getPartner(partnerId) : undefined;
        if (!partner) return [];
        return partner.allowedOrigins.length ? partner.allowedOrigins : deps.config.DEFAULT_FRAME_ANCESTORS;
      })();
      // Awaited in `after` or `onError`; until then a failure must not count as unhandled.
      pending.catch(() => undefined);
      request.context.frameAncestors = pending;
    },
    after: async (request) => apply(request, await (request.context.frameAncestors ?? [])),
    onError: async (request) => {
      const frameAncestors = await Promise.resolve(request.context.frameAncestors ?? []).catch(
        (): readonly string[] => [],
      );
      apply(request, frameAncestors);
    },
  };
};
