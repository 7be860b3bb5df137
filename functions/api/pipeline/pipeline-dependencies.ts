import type { Authenticator } from '../../domain/access/authenticator';
import type { RateLimiter } from '../../domain/access/rate-limiter';
import type { IdempotencyGuard } from '../../domain/idempotency/idempotency-guard';
import type { RuntimeConfig } from '../../config';
import type { HttpDependencies } from '../../http/http-dependencies';

/**
 * What the partner API's pipeline needs beyond the HTTP kit's, and no more; the
 * compositions (functions/composition) satisfy these, the pipeline never sees a composition.
 */

/** The partner API: who is calling, whether they are over their limit, and (for sandbox-only routes) which stage this is. */
export interface ApiAccessDependencies extends HttpDependencies {
  readonly authenticator: Pick<Authenticator, 'authenticate'>;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  readonly config: Pick<RuntimeConfig, 'STAGE'>;
}

/** An endpoint that honours the `Idempotency-Key` header. */
export interface IdempotencyDependencies extends ApiAccessDependencies {
  readonly idempotency: Pick<IdempotencyGuard, 'begin'>;
}
