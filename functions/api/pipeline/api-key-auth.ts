import type { MiddlewareObj } from '@middy/core';
import { requireScope } from '../../domain/access/authenticator';
import { RateLimited, Unauthorized } from '../../domain/errors';
import { type HttpEvent, type HttpResult, filledIn, header } from '../../http/http-context';
import type { ApiContext } from './api-context';
import type { ApiRoute } from '../../routes';
import type { ApiAccessDependencies } from './pipeline-dependencies';
import { rateLimitHeaders } from '../../http/responses';
import { correlate } from '../../domain/correlation';

/** The 401 message of a key sent in the other header: telling it helps the partner and reveals nothing about keys. */
export const wrongHeaderMessage = (credential: ApiRoute['credential']): string =>
  credential === 'x-api-key'
    ? 'Use the X-API-Key header on this endpoint'
    : 'Use the Authorization: Bearer header on this endpoint';

/**
 * Reads the key from the endpoint's one header (contract: Authentication 3). A key in
 * the other route's header is a 401 even when valid, so integrations fail loudly.
 */
function presentedKey(event: HttpEvent, credential: ApiRoute['credential']): string | undefined {
  // Two credentials are one too many: which one counts would depend on the endpoint, and
  // API Gateway joins repeated headers with a comma (a key never holds one).
  if (header(event, 'authorization') !== undefined && header(event, 'x-api-key') !== undefined) {
    throw new Unauthorized('Send the API key in one header only');
  }
  if ([header(event, 'authorization'), header(event, 'x-api-key')].some((value) => value?.includes(','))) {
    throw new Unauthorized('Send one credential header, once');
  }
  if (credential === 'x-api-key') {
    if (header(event, 'authorization') !== undefined && header(event, 'x-api-key') === undefined) {
      throw new Unauthorized(wrongHeaderMessage(credential));
    }
    return header(event, 'x-api-key')?.trim() || undefined;
  }
  const authorization = header(event, 'authorization');
  if (authorization === undefined) {
    if (header(event, 'x-api-key') !== undefined) throw new Unauthorized(wrongHeaderMessage(credential));
    return undefined;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new Unauthorized('The Authorization header must be "Bearer <API_KEY>"');
  return match[1];
}

/**
 * Authentication and the rate limit, both decided before the handler runs: a refused
 * request reaches no domain service, so it reads and writes nothing beyond its count.
 */
export const apiKeyAuth = <D extends ApiAccessDependencies>(
  route: ApiRoute,
): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>> => ({
  before: async (request) => {
    const deps = filledIn(request.context.deps, 'deps');
    const caller = await deps.authenticator.authenticate(presentedKey(request.event, route.credential));
    request.context.caller = caller;
    correlate({ partnerId: caller.partnerId });
    // Counted before the scope check and body validation: every authenticated request counts, and a 429 wins.
    try {
      request.context.rateLimit = await deps.rateLimiter.consume(
        caller.partnerId,
        route.endpoint,
        route.limitPerMinute,
      );
    } catch (error) {
      if (error instanceof RateLimited) request.context.rateLimit = error.limit;
      throw error;
    }
    requireScope(caller, route.scope);
  },
  after: (request) => {
    // Success responses carry the limit too; failures get it from the error responder.
    const limit = request.context.rateLimit;
    if (limit && request.response) {
      request.response.headers = { ...request.response.headers, ...rateLimitHeaders(limit) };
    }
  },
});
