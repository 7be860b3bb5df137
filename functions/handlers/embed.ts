import { type EmbedDependencies, embedFromEnvironment } from '../composition/embed';
import { EmbedAccessDenied } from '../domain/errors';
import { embeddedModulePath } from '../domain/sessions/iframe-embed-url';
import { type ApiEvent, header } from '../http/api-context';
import { clearedSessionCookie, readSessionCookie, sessionCookie } from '../http/embed-cookie';
import { type EmbedRequest, embedHandler } from '../http/embed-handler';
import { moduleShellPage, signedOutPage } from '../http/embed-pages';
import { html, type JsonResponse, seeOther } from '../http/responses';

/**
 * `GET /embedded/{partnerId}?session_key=…`: redeem the handshake token once, set the
 * session cookie and redirect to the same path without the key (so it never stays in
 * the URL, history or a Referer). A `session_key` always takes precedence over a cookie.
 */
async function openOrShow({ event, partnerId, deps }: EmbedRequest<EmbedDependencies>): Promise<JsonResponse> {
  const sessionKey = event.queryStringParameters?.session_key;
  if (sessionKey !== undefined) {
    const opened = await deps.embeddedSessions.redeem(partnerId, sessionKey);
    return seeOther(embeddedModulePath(partnerId), [sessionCookie(opened.cookieValue)]);
  }
  const view = await deps.embeddedSessions.resume(partnerId, readSessionCookie(event));
  return html(200, moduleShellPage(view, `${embeddedModulePath(partnerId)}/logout`));
}

/**
 * A cross-site form could otherwise sign the user out (the cookie is SameSite=None).
 * Browsers say where a request comes from in `Sec-Fetch-Site`; older ones only in
 * `Origin`, which our `Referrer-Policy: no-referrer` turns into `null` on our own form
 * posts, so `null` is let through there.
 */
function isSameOriginRequest(event: ApiEvent, embedBaseUrl: string): boolean {
  const site = header(event, 'sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = header(event, 'origin');
  return origin === undefined || origin === 'null' || origin === new URL(embedBaseUrl).origin;
}

/** `POST /embedded/{partnerId}/logout`, from the module's own sign-out form only. */
async function logout({ event, partnerId, deps }: EmbedRequest<EmbedDependencies>): Promise<JsonResponse> {
  if (!isSameOriginRequest(event, deps.config.EMBED_BASE_URL)) {
    throw new EmbedAccessDenied('foreign-origin', 'logout from a foreign origin');
  }
  await deps.embeddedSessions.logout(partnerId, readSessionCookie(event));
  return html(200, signedOutPage(), { cookies: [clearedSessionCookie()] });
}

export const createEmbedHandler = (getDependencies: () => Promise<EmbedDependencies>) =>
  embedHandler(getDependencies, (request) =>
    request.event.routeKey === 'POST /embedded/{partnerId}/logout' ? logout(request) : openOrShow(request),
  );

export const handler = createEmbedHandler(embedFromEnvironment);
