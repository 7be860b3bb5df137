import type { MiddlewareObj } from '@middy/core';
import { hostOutcome } from '../error-outcomes';
import type { HttpEvent, HttpResult } from '../http/http-context';
import { html, type HttpResponse } from '../http/responses';
import type { EmbedContext } from './embed-pipeline';
import { linkUnusablePage, unavailablePage } from './host-pages';
import { moduleFailureResponse } from './module/failure-page';
import { clearedSessionCookie } from './session-cookie';

const HOST_PAGES = {
  'session-ended': (frameAncestors: readonly string[]) => linkUnusablePage(frameAncestors, 'session-ended'),
  'link-unusable': (frameAncestors: readonly string[]) => linkUnusablePage(frameAncestors, 'link-unusable'),
  unavailable: unavailablePage,
} as const;

/** The embed host's own failures, as its notices for a person in an iframe (functions/error-outcomes/, `host`). */
function hostFailureResponse(error: unknown, frameAncestors: readonly string[]): HttpResponse {
  const outcome = hostOutcome(error);
  return html(outcome.status, HOST_PAGES[outcome.page](frameAncestors), {
    ...(outcome.clearSession ? { cookies: [clearedSessionCookie()] } : {}),
  });
}

/**
 * Turns any embed failure into its HTML page; details stay in the log. The module's own
 * failures (an empty cart, a forged form, an order of another organization...: their
 * pages are in functions/error-outcomes/) say what to do next; everything else is the
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
