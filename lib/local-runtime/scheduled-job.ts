/** A job run on a schedule, as an EventBridge rule runs a Lambda, for the local runtime. */
export interface ScheduledJob<R> {
  /** Runs the job now, after any run under way (runs never overlap); tests step the schedule with it. */
  runOnce(): Promise<R>;
  /** Runs it now and then every interval, until `stop`. */
  start(): void;
  /** No further runs; waits for the one under way. */
  stop(): Promise<void>;
}

/** A failing run is reported and the schedule goes on, as the next EventBridge invocation would. */
export function scheduledJob<R>(
  run: () => Promise<R>,
  options: { readonly intervalMs: number; readonly onError?: (error: unknown) => void },
): ScheduledJob<R> {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let last: Promise<unknown> = Promise.resolve();

  const runOnce = (): Promise<R> => {
    const next = last.then(run, run);
    last = next.catch(() => undefined);
    return next;
  };
  const tick = () => {
    runOnce()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        if (running) timer = setTimeout(tick, options.intervalMs);
      });
  };

  return {
    runOnce,
    start() {
      if (running) return;
      running = true;
      tick();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await last;
    },
  };
}
