// zod/mini: the setup Lambda checks this header at cold start, and the classic API alone is ~440 KB bundled.
import type { MiddlewareObj } from '@middy/core';
import * as z from 'zod/mini';
import { ValidationFailed } from '../../domain/errors';
import type { StoredOutcome } from '../../domain/idempotency/stored-outcome';
import { toValidationIssues } from '../../domain/validation';
import { type HttpEvent, type HttpResult, filledIn, header } from '../../http/http-context';
import type { ApiContext } from './api-context';
import type { ApiEndpointName } from '../../routes';
import type { IdempotencyDependencies } from './pipeline-dependencies';
import { type HttpResponse, json } from '../../http/responses';

const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Stripe's rule: up to 255 characters; printable ASCII keeps keys safe to log and store. */
export const IdempotencyKey = z.string().check(z.trim(), z.minLength(1), z.maxLength(255), z.regex(/^[\x20-\x7e]+$/));

/**
 * Outcomes worth replaying: the request was processed to a definite answer. A 500 (or
 * anything else) frees the key so the client's retry runs again.
 */
const isFinal = (response: HttpResult, error: Error | null): boolean =>
  response.statusCode === 200 ||
  response.statusCode === 201 ||
  // Accepted: the work was handed on (Stripe asked, a webhook queued), so a retry must not hand it on again.
  response.statusCode === 202 ||
  response.statusCode === 409 ||
  (response.statusCode === 400 && error instanceof ValidationFailed);

/**
 * The optional `Idempotency-Key` header (beyond the contract, as Stripe does it): the
 * first request with a key runs and its final outcome (200, 201, 202, 409, 400 validation) is
 * replayed, status and body, for 24 hours; see IdempotencyGuard for reuse and in-flight
 * rules. Keys are scoped per partner and endpoint.
 *
 * Two middlewares, because the pipeline's order asks for two places: the claim needs the
 * caller and the body, so it runs after authentication and body parsing; the settlement
 * keeps the response the error responder made (functions/error-outcomes/, the one mapping of
 * failures to HTTP), so it sits above that responder, whose `onError` runs before its own.
 */
export const idempotencyKey = <D extends IdempotencyDependencies>(endpoint: ApiEndpointName) => ({
  claim: {
    before: async (request) => {
      const key = presentedIdempotencyKey(request.event);
      if (key === undefined) return;
      const { deps, caller, body } = request.context;
      const scope = `${endpoint}#${filledIn(caller, 'caller').partnerId}`;
      request.context.idempotency = await filledIn(deps, 'deps').idempotency.begin(
        scope,
        key,
        keyedRequest(request.event, body),
      );
    },
  } satisfies MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>>,

  settlement: {
    after: (request) => settle(request.context, request.response, null),
    onError: (request) => settle(request.context, request.response, request.error),
  } satisfies MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext<D>>,
});

async function settle<D extends IdempotencyDependencies>(
  context: ApiContext<D>,
  response: HttpResult | null,
  error: Error | null,
) {
  const { idempotency: attempt, deps } = context;
  if (attempt?.kind !== 'first' || !response || !deps) return;
  const log = { requestId: context.requestId, partnerId: context.caller?.partnerId };
  try {
    if (!isFinal(response, error)) return await attempt.release();
    const kept = await attempt.complete({ statusCode: response.statusCode ?? 500, body: response.body ?? '' });
    if (!kept) deps.logger.error({ msg: 'idempotency_claim_lapsed', ...log });
  } catch (failure) {
    // The answer stands; the key's claim lapses on its own after a minute.
    deps.logger.error({
      msg: 'idempotency_record_failed',
      requestId: log.requestId,
      reason: (failure as Error).message,
    });
  }
}

/**
 * What a key stands for: the body, and on a route that names its resource in the path
 * (`…/approval-requests/{id}/approve`), that route and resource too, so a key reused for
 * another request or action of one endpoint is refused rather than answered with the
 * first one's outcome. Setup's fingerprint stays its body's alone.
 */
export function keyedRequest(event: Pick<HttpEvent, 'routeKey' | 'pathParameters'>, body: unknown): unknown {
  const path = event.pathParameters ?? {};
  return Object.keys(path).length === 0 ? body : { route: event.routeKey, path, body };
}

function presentedIdempotencyKey(event: HttpEvent): string | undefined {
  const raw = header(event, IDEMPOTENCY_KEY_HEADER);
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

/** A stored outcome as it was first answered, marked as a replay. */
export const replayed = (outcome: StoredOutcome): HttpResponse => {
  const response = json(outcome.statusCode, null, { 'Idempotent-Replayed': 'true' });
  return { ...response, body: outcome.body };
};
