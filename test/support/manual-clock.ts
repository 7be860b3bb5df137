import type { Clock } from '../../functions/domain/clock';

/** A clock tests move by hand, so expiry and retry schedules need no sleeping. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start = new Date('2026-11-22T12:00:00.000Z')) {
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
