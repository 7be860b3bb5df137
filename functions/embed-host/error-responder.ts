import type { MiddlewareObj } from '@middy/core';
import { EmbedAccessDenied } from '../domain/errors';
import type { HttpEvent, HttpResult } from '../http/http-context';
import { html, type HttpResponse } from '../http/responses';
import type { EmbedContext } from './embed-pipeline';
import { linkUnusablePage, unavailablePage } from './host-pages';
import { moduleFailureResponse } from './module/failure-page';
import { clearedSessionCookie } from './session-cookie';

/**
 * The embed host's own failures, as pages for a person in an iframe: any unusable link or
 * session is the same 401 page (a refused session cookie is also cleared, but never on
 * a cross-site request, which must not be able to sign the user out); anything
 * else is a generic 500 page.
 */
function hostFailureResponse(error: unknown, frameAncestors: readonly string[]): HttpResponse {
  if (error instanceof EmbedAccessDenied) {
    return error.refused === 'session'
      ? html(401, linkUnusablePage(frameAncestors, 'session-ended'), { cookies: [clearedSessionCookie()] })
      : html(401, linkUnusablePage(frameAncestors, 'link-unusable'));
  }
  return html(500, unavailablePage(frameAncestors));
}

/**
 * Turns any embed failure into its HTML page; details stay in the log. The module's own
 * failures (an empty cart, a forged form, an order of another organization...: their
 * pages are in functions/error-outcomes.ts) say what to do next; everything else is the
 * embed host's.
 */
export const embedErrorResponder = <D>(): MiddlewareObj<HttpEvent, HttpResult, Error, EmbedContext<D>> => ({
  onError: async (request) => {
    // A failed read of the partner's origins frames the error page for no one.
    const frameAncestors = await (request.context.frameAncestors ?? Promise.resolve([])).catch(
      (): readonly string[] => [],
    );
    request.response =
      moduleFailureResponse(request.error, request.event.pathParameters?.partnerId ?? '', frameAncestors) ??
      hostFailureResponse(request.error, frameAncestors);
  },
});
