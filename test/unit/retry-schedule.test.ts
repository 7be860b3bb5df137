import { describe, expect, it } from 'vitest';
import { hopDelaySeconds, RetrySchedule } from '../../functions/domain/webhooks/retry-schedule';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 22, 12) + seconds * 1000);

describe('the retry ladder', () => {
  const ladder = new RetrySchedule([60, 300, 900, 3600, 21600, 86400]);

  it('makes seven attempts: the first and six retries, each delay counted from the failure before it', () => {
    expect(ladder.maxAttempts).toBe(7);
    expect([1, 2, 3, 4, 5, 6].map((failed) => (ladder.nextAttemptAt(failed, at(0))!.getTime() - at(0).getTime()) / 1000)).toEqual([
      60, 300, 900, 3600, 21600, 86400,
    ]);
    expect(ladder.nextAttemptAt(7, at(0))).toBeUndefined();
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
