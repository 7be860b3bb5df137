/** The longest delay SQS accepts on a message. */
export const MAX_SQS_DELAY_SECONDS = 900;

/** Each step is lengthened by up to this fraction of itself, so receivers that failed together are not retried together. */
const JITTER_FRACTION = 0.1;

/** Statuses whose `Retry-After` is honoured (RFC 9110: 429 Too Many Requests, 503 Service Unavailable): for the attempt's retry, and for the whole endpoint. */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** A receiver's `Retry-After` (on 429 or 503) may lengthen a step up to this, never more. */
const RETRY_AFTER_CAP_SECONDS = 3600;

/**
 * The retry ladder (docs/architecture.md, "Retry schedule"). `delaysSeconds[i]` is the wait after the
 * failure of attempt `i + 1` before attempt `i + 2`; one first attempt plus one retry per
 * delay, so the default six delays make seven attempts in all.
 *
 * Each wait is the step plus jitter in [0, 10 % of the step), never less than the step
 * (the contract's "retried at 1 minute, 5 minutes, ..." stays a lower bound); a
 * receiver's `Retry-After` wins when it asks for longer than that, capped at one hour.
 */
export class RetrySchedule {
  constructor(
    readonly delaysSeconds: readonly number[],
    /** Uniform in [0, 1). */
    private readonly random: () => number,
  ) {}

  get maxAttempts(): number {
    return this.delaysSeconds.length + 1;
  }

  /** When attempt `failedAttempt + 1` is due, or undefined when `failedAttempt` was the last. */
  nextAttemptAt(failedAttempt: number, failedAt: Date, retryAfterSeconds?: number): Date | undefined {
    const step = this.delaysSeconds[failedAttempt - 1];
    if (step === undefined) return undefined;
    const jittered = step * (1 + JITTER_FRACTION * Math.min(Math.max(this.random(), 0), 1));
    const asked = retryAfterSeconds === undefined ? 0 : Math.min(retryAfterSeconds, RETRY_AFTER_CAP_SECONDS);
    // Floored to the millisecond, so the jitter stays below its bound.
    return new Date(failedAt.getTime() + Math.floor(Math.max(jittered, asked) * 1000));
  }
}

/**
 * Seconds a `Retry-After` header asks for: delay-seconds, or an HTTP date (RFC 9110
 * 10.2.3) measured from `now`; undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | undefined, now: Date): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date names its weekday and month; anything else (`-5`, `1.5`) is unreadable, not a year.
  if (!/^[A-Za-z]{3}, /.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** The SQS delay for the next hop towards `dueAt`: the remaining wait, capped at 900 s. */
export function hopDelaySeconds(dueAt: Date, now: Date): number {
  const remaining = Math.ceil((dueAt.getTime() - now.getTime()) / 1000);
  return Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, remaining));
}
