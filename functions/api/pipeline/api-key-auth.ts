import type { MiddlewareObj } from '@middy/core';
import { requireScope } from '../../domain/access/authenticator';
import { Unauthorized } from '../../domain/errors';
import { type ApiContext, type ApiEvent, type ApiResult, filledIn, header } from './api-context';
import type { ApiEndpoint } from './endpoints';
import type { ApiAccessDependencies } from './pipeline-dependencies';
import { settleAdmission } from './admission';
import { rateLimitHeaders } from './responses';
import { correlate } from '../../domain/correlation';

/**
 * Reads the key from the endpoint's one header (contract: Authentication 3). A key in
 * the other endpoint's header is a 401 even when valid, so integrations fail loudly.
 */
export function presentedKey(event: ApiEvent, credential: ApiEndpoint['credential']): string | undefined {
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
      throw new Unauthorized('Use the X-API-Key header on this endpoint');
    }
    return header(event, 'x-api-key')?.trim() || undefined;
  }
  const authorization = header(event, 'authorization');
  if (authorization === undefined) {
    if (header(event, 'x-api-key') !== undefined) throw new Unauthorized('Use the Authorization: Bearer header on this endpoint');
    return undefined;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new Unauthorized('The Authorization header must be "Bearer <API_KEY>"');
  return match[1];
}

export const apiKeyAuth = <D extends ApiAccessDependencies>(endpoint: ApiEndpoint): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<D>> => ({
  before: async (request) => {
    const deps = filledIn(request.context.deps, 'deps');
    const caller = await deps.authenticator.authenticate(presentedKey(request.event, endpoint.credential));
    request.context.caller = caller;
    correlate({ partnerId: caller.partnerId });
    // Counted before the scope check and body validation: every authenticated request counts.
    const admission = deps.rateLimiter.consume(caller.partnerId, endpoint.name, endpoint.limitPerMinute);
    // Settled by settleAdmission (here, in the handler or in the error responder); never left unobserved.
    admission.catch(() => undefined);
    request.context.admission = admission;
    if (!endpoint.countsConcurrently) await settleAdmission(request.context);
    requireScope(caller, endpoint.scope);
  },
  after: async (request) => {
    // Success responses carry the limit too; failures get it from the error responder.
    const limit = await settleAdmission(request.context);
    if (limit && request.response) {
      request.response.headers = { ...request.response.headers, ...rateLimitHeaders(limit) };
    }
  },
});
