import type { Logger } from '../domain/logger';
import type { Metrics } from '../domain/metrics';

/**
 * What every HTTP pipeline needs: one log line per request, and its metrics flushed. The
 * compositions (functions/composition) satisfy it; the pipelines never see a composition.
 */
export interface HttpDependencies {
  readonly logger: Logger;
  readonly metrics?: Metrics;
}
