/**
 * The local runtime's schedule (lib/local-runtime/scheduled-job.ts), as `npm start` runs
 * the approval expiry sweep with it: a run at start and one per interval, never two at
 * once, a failing run reported without ending the schedule, nothing after `stop`.
 * Vitest's fake timers move the schedule; nothing here measures time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduledJob } from '../../lib/local-runtime/scheduled-job';

const INTERVAL = 15 * 60_000;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('scheduledJob', () => {
  it('runs at start and then once per interval; a failing run is reported and the next one still comes; stop ends it', async () => {
    const runs: number[] = [];
    const errors: unknown[] = [];
    const job = scheduledJob(
      async () => {
        runs.push(runs.length + 1);
        if (runs.length === 2) throw new Error('the store is down');
        return runs.length;
      },
      { intervalMs: INTERVAL, onError: (error) => errors.push(error) },
    );
    job.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([1]);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(runs).toEqual([1, 2]);
    expect(errors).toEqual([new Error('the store is down')]);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(runs).toEqual([1, 2, 3]);
    await job.stop();
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(runs).toEqual([1, 2, 3]);
  });

  it('runOnce waits for a run under way instead of overlapping it, and answers its own result', async () => {
    let active = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let count = 0;
    const job = scheduledJob(
      async () => {
        active += 1;
        most = Math.max(most, active);
        count += 1;
        const mine = count;
        if (mine === 1) await gate;
        active -= 1;
        return mine;
      },
      { intervalMs: INTERVAL },
    );
    const first = job.runOnce();
    const second = job.runOnce();
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(most).toBe(1);
    await job.stop();
  });
});
