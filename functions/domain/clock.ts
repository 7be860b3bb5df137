/** Time is injected everywhere so tests control expiry and retry schedules. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
