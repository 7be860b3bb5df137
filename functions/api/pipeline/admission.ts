import type { RateLimitState } from '../../domain/errors';
import type { ApiContext } from './api-context';

/**
 * Waits for the request's rate-limit count and records its state on the context; rethrows
 * what the count threw (RateLimited, or the limiter's own failure). An endpoint that
 * counts concurrently with its reads calls this before its first write, and the pipeline
 * calls it before answering, so a refused request writes nothing and a 429 still wins.
 */
export async function settleAdmission<D>(context: ApiContext<D>): Promise<RateLimitState | undefined> {
  if (!context.admission) return context.rateLimit;
  try {
    context.rateLimit = await context.admission;
  } catch (error) {
    const limit = (error as { limit?: RateLimitState }).limit;
    if (limit) context.rateLimit = limit;
    throw error;
  }
  return context.rateLimit;
}
