import { isAllowedFrameOrigin } from '../embed-sdk/frame-origin';
import type { EmbedRequest } from './embed-pipeline';
import { frameAncestorSources } from './frame-ancestor-sources';
import type { EmbedHostDependencies } from './embed-pipeline';
import { json, type HttpResponse } from '../http/responses';

/**
 * `GET /embedded/{partnerId}/frame-check`: may the calling page (its `Origin`) frame this
 * partner's module? A frame the browser blocks says nothing to the page, so the SDK asks
 * this to report `frame-blocked` rather than wait for its timeout. It tells nothing new:
 * every module response's CSP lists the same origins.
 */
export function frameCheck({
  event,
  frameAncestors,
  deps,
}: EmbedRequest<
  EmbedHostDependencies & { readonly config: { readonly EMBED_BASE_URL: string } }
>): Promise<HttpResponse> {
  const origin = event.headers?.origin;
  const allowed =
    origin !== undefined &&
    isAllowedFrameOrigin(origin, frameAncestorSources(frameAncestors), new URL(deps.config.EMBED_BASE_URL).origin);
  return Promise.resolve(json(200, { allowed }, { 'Access-Control-Allow-Origin': '*', Vary: 'Origin' }));
}
