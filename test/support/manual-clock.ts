import type { Clock } from '../../functions/domain/clock';

/**
 * Where test clocks start: a fixed time, so stored timestamps are predictable, and years
 * ahead of real time, because DynamoDB Local deletes items whose TTL attribute is in the
 * real past within seconds. TTLs computed from a clock behind real time (a rate-limit
 * counter's is two minutes after its window) would vanish in the middle of a test.
 */
export const TEST_CLOCK_START = '2036-11-22T12:00:00.000Z';

/** A clock tests move by hand, so expiry and retry schedules need no sleeping. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start = new Date(TEST_CLOCK_START)) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
  set(date: Date): void {
    this.current = date.getTime();
  }
}
