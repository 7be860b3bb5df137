/**
 * Responses every authenticated route shares: the pipeline's authentication, scope and
 * rate-limit failures (functions/api/pipeline/api-key-auth.ts), in the general
 * error body. A route document spreads them into its `responses`.
 */
import { INVALID_API_KEY_MESSAGE } from '../../domain/errors';
import { wrongHeaderMessage } from '../pipeline/api-key-auth';
import {
  ForbiddenBody,
  IdempotencyKeyInUseBody,
  OrganizationNotFoundBody,
  RateLimitExceededBody,
  serverErrorBody,
  serverErrorExample,
  UnauthorizedBody,
} from '../pipeline/error-bodies';
import type { ApiRoute } from '../../routes';
import type { Example, ResponseDocument, ResponseHeaders } from './route-document';

/** Every response of an authenticated request: the rate limit was counted. */
export const AUTHENTICATED_HEADERS: ResponseHeaders = {
  required: ['Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
};

/** A route that honours `Idempotency-Key`: a replay carries `Idempotent-Replayed`. */
export const REPLAYABLE_HEADERS: ResponseHeaders = { ...AUTHENTICATED_HEADERS, optional: ['Idempotent-Replayed'] };

/** The example of a 409 for an `Idempotency-Key` whose first request is still running. */
export const IDEMPOTENCY_KEY_IN_USE_EXAMPLE: Example = {
  summary: 'The same Idempotency-Key is in flight',
  value: {
    error: 'Conflict',
    message: 'A request with this Idempotency-Key is still being processed; retry later',
    code: 'IDEMPOTENCY_KEY_IN_USE',
    details: [],
  },
};

/** The 409 of an idempotent route that has no conflict of its own. */
export const idempotencyKeyInUseResponse: ResponseDocument = {
  description: 'A request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`); retry shortly.',
  body: { name: 'IdempotencyKeyInUseError', schema: IdempotencyKeyInUseBody },
  examples: { idempotencyKeyInUse: IDEMPOTENCY_KEY_IN_USE_EXAMPLE },
  headers: REPLAYABLE_HEADERS,
};

/** A 500 may come before the rate limit was counted (the counter's store failing), so the RateLimit headers may be missing. */
const SERVER_ERROR_HEADERS: ResponseHeaders = {
  required: ['Request-Id'],
  optional: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
};

export const unauthorizedResponse = (header: string): ResponseDocument => ({
  description: `No usable credential. A key that is missing, malformed, unknown, revoked or of the other environment always answers the message \`${INVALID_API_KEY_MESSAGE}\`: which of these it was is never told. A credential in the wrong header (not \`${header}\`), in both headers, or in one header twice answers a message that says what to send instead.`,
  body: { name: 'UnauthorizedError', schema: UnauthorizedBody },
  examples: {
    unauthorized: {
      summary: 'No usable key (missing, unknown, revoked or other environment)',
      value: { error: 'Unauthorized', message: INVALID_API_KEY_MESSAGE, code: 'UNAUTHORIZED', details: [] },
    },
    wrongHeader: {
      summary: 'The key in the other header',
      value: {
        error: 'Unauthorized',
        message: wrongHeaderMessage(header.startsWith('X-API-Key') ? 'x-api-key' : 'authorization-bearer'),
        code: 'UNAUTHORIZED',
        details: [],
      },
    },
  },
  // Not authenticated, so not counted: no RateLimit headers.
  headers: { required: ['Request-Id'] },
});

/** `resource`: what of another partner's the route can be asked about; absent when the route reads nothing partner-owned (the catalog). */
export const forbiddenResponse = (scope: string, resource?: string): ResponseDocument => ({
  description: `The key lacks the \`${scope}\` scope${resource === undefined ? '' : `, or the ${resource} belongs to another partner`}.`,
  body: { name: 'ForbiddenError', schema: ForbiddenBody },
  examples: {
    missingScope: {
      summary: 'Key without the scope',
      value: { error: 'Forbidden', message: `This API key lacks the ${scope} scope`, code: 'FORBIDDEN', details: [] },
    },
  },
  headers: AUTHENTICATED_HEADERS,
});

export const rateLimitedResponse = (limitPerMinute: number): ResponseDocument => ({
  description: `More than ${limitPerMinute} requests of this route per minute for your partner account (counted per partner, not per key; every authenticated request counts, replays included). Wait \`retry_after\` seconds (also \`Retry-After\`), then retry.`,
  body: { name: 'RateLimitExceededError', schema: RateLimitExceededBody },
  examples: {
    rateLimited: {
      summary: 'Over the limit',
      value: {
        error: 'Too Many Requests',
        message: `Rate limit of ${limitPerMinute} requests per minute exceeded`,
        code: 'RATE_LIMIT_EXCEEDED',
        details: [],
        retry_after: 17,
      },
    },
  },
  headers: { required: [...AUTHENTICATED_HEADERS.required, 'Retry-After'] },
});

/**
 * The 500 of every route, in the route's error shape (its row's `errors`): `description`
 * says what failed on our side and whether a retry is safe.
 */
export const serverErrorResponse = (route: Pick<ApiRoute, 'errors'>, description: string): ResponseDocument => ({
  description,
  body: serverErrorBody(route),
  examples: { serverError: { summary: 'Our failure', value: serverErrorExample(route) } },
  headers: SERVER_ERROR_HEADERS,
});

/** What a reader may simply retry. */
export const READ_RETRY = 'Retry with exponential backoff.';

/** The 500 of a route whose failure is ours (storage, or what `cause` names); `retry` says whether and how to retry. */
export const internalErrorResponse = (route: ApiRoute, retry: string, cause = 'storage'): ResponseDocument =>
  serverErrorResponse(route, `Something failed on our side (${cause}). ${retry}`);

/** The example of a 404 for an organization the partner does not have (or another partner's). */
export const ORGANIZATION_NOT_FOUND_EXAMPLE: Example = {
  summary: 'Unknown organization',
  value: {
    error: 'Not Found',
    message: 'No organization with internal_org_id "acme-9"',
    code: 'ORGANIZATION_NOT_FOUND',
    details: [],
  },
};

/** The 404 of a route whose only missing thing can be the organization; `description` names the parameter. */
export const organizationNotFoundResponse = (description: string): ResponseDocument => ({
  description,
  body: { name: 'OrganizationNotFoundError', schema: OrganizationNotFoundBody },
  examples: { organizationNotFound: ORGANIZATION_NOT_FOUND_EXAMPLE },
  headers: AUTHENTICATED_HEADERS,
});
