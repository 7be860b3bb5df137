import type { RateLimitState } from '../../domain/errors';
import type { IdempotentAttempt } from '../../domain/idempotency/idempotency-guard';
import type { HttpContext } from '../../http/http-context';

/** What the partner API's pipeline adds to the request's context, after the caller. */
export interface ApiContext<D> extends HttpContext<D> {
  rateLimit?: RateLimitState;
  body?: Record<string, unknown>;
  /** Set when the request carries an Idempotency-Key: its first run, or the outcome to replay. */
  idempotency?: IdempotentAttempt;
}
