import type { Clock } from '../clock';
import { RateLimited, type RateLimitState } from '../errors';

/** Storage port: atomically adds one to a window's counter and returns the new count. */
export interface RateLimitCounter {
  increment(key: string, expiresAtEpochSeconds: number): Promise<number>;
}

const WINDOW_SECONDS = 60;

/**
 * Fixed one-minute windows per partner, endpoint and environment (docs/architecture.md, "Rate limits").
 * Counted per partner, not per key, so rotating or adding keys cannot buy more requests.
 */
export class RateLimiter {
  constructor(
    private readonly counter: RateLimitCounter,
    private readonly clock: Clock,
    private readonly environment: string,
  ) {}

  /** Counts this request; throws RateLimited when it is over the limit. */
  async consume(partnerId: string, endpoint: string, limitPerMinute: number): Promise<RateLimitState> {
    const nowSeconds = this.clock.now().getTime() / 1000;
    const windowStart = Math.floor(nowSeconds / WINDOW_SECONDS) * WINDOW_SECONDS;
    const windowEnd = windowStart + WINDOW_SECONDS;
    const count = await this.counter.increment(
      `${this.environment}#${partnerId}#${endpoint}#${windowStart}`,
      // Keep the item a little past its window; TTL deletion is lazy anyway.
      windowEnd + WINDOW_SECONDS,
    );
    const state: RateLimitState = {
      limit: limitPerMinute,
      remaining: Math.max(0, limitPerMinute - count),
      resetSeconds: Math.max(1, Math.ceil(windowEnd - nowSeconds)),
    };
    if (count > limitPerMinute) throw new RateLimited(state);
    return state;
  }
}
