// zod/mini: the setup Lambda checks this header at cold start, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import { ValidationFailed } from '../domain/errors';
import type { StoredOutcome } from '../domain/idempotency/idempotency-guard';
import { toValidationIssues } from '../domain/validation';
import { header } from './api-context';
import type { SetupDependencies } from '../composition/setup';
import type { ApiRequest } from './api-handler';
import type { ApiEndpoint } from './endpoints';
import { errorResponse } from './error-responses';
import { type JsonResponse, json } from './responses';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Stripe's rule: up to 255 characters; printable ASCII keeps keys safe to log and store. */
const IdempotencyKey = z.string().check(z.trim(), z.minLength(1), z.maxLength(255), z.regex(/^[\x20-\x7e]+$/));

/**
 * Outcomes worth replaying: the request was processed to a definite answer. A 500 (or
 * anything else) frees the key so the client's retry runs again.
 */
const isFinal = (response: JsonResponse, error: unknown): boolean =>
  response.statusCode === 200 ||
  response.statusCode === 409 ||
  (response.statusCode === 400 && error instanceof ValidationFailed);

type Handle = (request: ApiRequest<SetupDependencies>) => Promise<JsonResponse>;

/**
 * The optional `Idempotency-Key` header (beyond the contract, as Stripe does it), around
 * an endpoint's handler: the first request with a key runs and its final outcome (200,
 * 409, 400 validation) is replayed, status and body, for 24 hours; see
 * IdempotencyGuard for reuse and in-flight rules. Keys are scoped per partner.
 */
export const withIdempotencyKey =
  (endpoint: ApiEndpoint['name'], handle: Handle): Handle =>
  async (request) => {
    const key = presentedIdempotencyKey(request);
    if (key === undefined) return handle(request);

    const { deps, caller } = request;
    const attempt = await deps.idempotency.begin(`${endpoint}#${caller.partnerId}`, key, request.body);
    if (attempt.kind === 'replay') return replay(attempt.outcome);

    const settle = async (response: JsonResponse, error?: unknown) => {
      try {
        if (!isFinal(response, error)) return await attempt.release();
        const kept = await attempt.complete({ statusCode: response.statusCode, body: response.body });
        if (!kept) deps.logger.error({ msg: 'idempotency_claim_lapsed', requestId: request.requestId, partnerId: caller.partnerId });
      } catch (failure) {
        // The answer stands; the key's claim lapses on its own after a minute.
        deps.logger.error({ msg: 'idempotency_record_failed', requestId: request.requestId, reason: (failure as Error).message });
      }
    };

    let response: JsonResponse;
    try {
      response = await handle(request);
    } catch (error) {
      // The pipeline maps the error exactly like this (error-responses.ts is the one mapping).
      await settle(errorResponse(error, endpoint), error);
      throw error;
    }
    await settle(response);
    return response;
  };

function presentedIdempotencyKey(request: ApiRequest): string | undefined {
  const raw = header(request.event, IDEMPOTENCY_KEY_HEADER);
  if (raw === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error).map((issue) => ({
    ...issue,
    path: ['headers', IDEMPOTENCY_KEY_HEADER],
    message: `${IDEMPOTENCY_KEY_HEADER} header ${issue.message.replace(/^request body /, '')}`,
  }));
  throw new ValidationFailed(issues, `The ${IDEMPOTENCY_KEY_HEADER} header must be 1-255 printable ASCII characters`);
}

const replay = (outcome: StoredOutcome): JsonResponse => {
  const response = json(outcome.statusCode, null, { 'Idempotent-Replayed': 'true' });
  return { ...response, body: outcome.body };
};
