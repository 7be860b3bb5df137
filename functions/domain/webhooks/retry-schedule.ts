/** The longest delay SQS accepts on a message. */
export const MAX_SQS_DELAY_SECONDS = 900;

/**
 * The retry ladder (DESIGN.md: retry schedule). `delaysSeconds[i]` is the wait after the
 * failure of attempt `i + 1` before attempt `i + 2`; one first attempt plus one retry per
 * delay, so the default six delays make seven attempts in all.
 */
export class RetrySchedule {
  constructor(readonly delaysSeconds: readonly number[]) {}

  get maxAttempts(): number {
    return this.delaysSeconds.length + 1;
  }

  /** When attempt `failedAttempt + 1` is due, or undefined when `failedAttempt` was the last. */
  nextAttemptAt(failedAttempt: number, failedAt: Date): Date | undefined {
    const delay = this.delaysSeconds[failedAttempt - 1];
    return delay === undefined ? undefined : new Date(failedAt.getTime() + delay * 1000);
  }
}

/** The SQS delay for the next hop towards `dueAt`: the remaining wait, capped at 900 s. */
export function hopDelaySeconds(dueAt: Date, now: Date): number {
  const remaining = Math.ceil((dueAt.getTime() - now.getTime()) / 1000);
  return Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, remaining));
}
