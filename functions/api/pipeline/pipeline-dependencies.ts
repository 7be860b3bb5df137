import type { Authenticator } from '../../domain/access/authenticator';
import type { RateLimiter } from '../../domain/access/rate-limiter';
import type { IdempotencyGuard } from '../../domain/idempotency/idempotency-guard';
import type { Logger } from '../../domain/logger';
import type { Metrics } from '../../domain/metrics';
import type { PartnerRepository } from '../../domain/partners/partner-repository';
import type { RuntimeConfig } from '../../config';

/**
 * What the HTTP pipelines need, and no more; the compositions (functions/composition)
 * satisfy these, the pipelines never see a composition.
 */

/** Every pipeline writes one log line per request, and flushes its metrics. */
export interface PipelineDependencies {
  readonly logger: Logger;
  readonly metrics?: Metrics;
}

/** The partner API: who is calling, whether they are over their limit, and (for sandbox-only routes) which stage this is. */
export interface ApiAccessDependencies extends PipelineDependencies {
  readonly authenticator: Pick<Authenticator, 'authenticate'>;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  readonly config: Pick<RuntimeConfig, 'STAGE'>;
}

/** An endpoint that honours the `Idempotency-Key` header. */
export interface IdempotencyDependencies extends ApiAccessDependencies {
  readonly idempotency: Pick<IdempotencyGuard, 'begin'>;
}

/** The embed host: the partner named in the path decides who may frame the page. */
export interface EmbedHostDependencies extends PipelineDependencies {
  readonly partners: Pick<PartnerRepository, 'getPartner'>;
  readonly config: { readonly DEFAULT_FRAME_ANCESTORS: readonly string[] };
}
