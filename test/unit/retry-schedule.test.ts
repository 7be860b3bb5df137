import { describe, expect, it } from 'vitest';
import { hopDelaySeconds, RetrySchedule, retryAfterSeconds } from '../../functions/webhooks/retry-schedule';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 22, 12) + seconds * 1000);
const STEPS = [60, 300, 900, 3600, 21600, 86400];
const waits = (schedule: RetrySchedule, retryAfter?: number) =>
  [1, 2, 3, 4, 5, 6].map(
    (failed) => (schedule.nextAttemptAt(failed, at(0), retryAfter)!.getTime() - at(0).getTime()) / 1000,
  );

describe('the retry ladder', () => {
  const ladder = new RetrySchedule(STEPS, () => 0);

  it('makes seven attempts: the first and six retries, each delay counted from the failure before it', () => {
    expect(ladder.maxAttempts).toBe(7);
    expect(waits(ladder)).toEqual(STEPS);
    expect(ladder.nextAttemptAt(7, at(0))).toBeUndefined();
  });

  it('adds jitter of at least nothing and less than 10 % of each step', () => {
    expect(waits(new RetrySchedule(STEPS, () => 0))).toEqual(STEPS);
    expect(waits(new RetrySchedule(STEPS, () => 0.5))).toEqual([63, 315, 945, 3780, 22680, 90720]);
    const highest = waits(new RetrySchedule(STEPS, () => 0.999_999));
    highest.forEach((wait, index) => {
      const step = STEPS[index] as number;
      expect(wait).toBeGreaterThan(step * 1.0999);
      expect(wait).toBeLessThan(step * 1.1);
    });
  });

  it('waits as long as a Retry-After asks when that is longer than the step, but never more than an hour', () => {
    expect(waits(ladder, 120)).toEqual([120, 300, 900, 3600, 21600, 86400]);
    expect(waits(ladder, 7200)).toEqual([3600, 3600, 3600, 3600, 21600, 86400]);
    expect(waits(ladder, 10)).toEqual(STEPS);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds('120', at(0))).toBe(120);
    expect(retryAfterSeconds(' 0 ', at(0))).toBe(0);
    expect(retryAfterSeconds(at(90).toUTCString(), at(0))).toBe(90);
    expect(retryAfterSeconds(at(-90).toUTCString(), at(0))).toBe(0);
    expect(retryAfterSeconds(undefined, at(0))).toBeUndefined();
    expect(retryAfterSeconds('soon', at(0))).toBeUndefined();
    expect(retryAfterSeconds('-5', at(0))).toBeUndefined();
  });

  it('hops towards a due time in SQS delays of at most 900 s, rounding up', () => {
    expect(hopDelaySeconds(at(3600), at(0))).toBe(900);
    expect(hopDelaySeconds(at(900), at(0))).toBe(900);
    expect(hopDelaySeconds(at(899.2), at(0))).toBe(900);
    expect(hopDelaySeconds(at(12.4), at(0))).toBe(13);
    expect(hopDelaySeconds(at(0), at(0))).toBe(0);
    expect(hopDelaySeconds(at(0), at(5))).toBe(0);
  });
});
