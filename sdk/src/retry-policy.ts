/**
 * When to try a request again and how long to wait: exponential backoff with full jitter
 * (a random wait between 0 and `min(cap, base × 2^retry)`), so many clients that failed
 * together do not retry together; never sooner than a 429's `retry_after`.
 */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

/** Which failures a request may be retried after. */
export type Retryable =
  /** Rate limits, 5xx and network failures: the request is idempotent or carries an `Idempotency-Key`. */
  | 'on-failure'
  /** Only 429, which the API answers before doing anything: a retry after a lost answer could do it twice. */
  | 'on-rate-limit';

/** Milliseconds before retry number `retry` (0-based), at least `retryAfterSeconds` when the API asked for it. */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  random: () => number,
  retryAfterSeconds?: number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = Math.floor(random() * ceiling);
  return retryAfterSeconds === undefined ? jittered : Math.max(retryAfterSeconds * 1000, jittered);
}
