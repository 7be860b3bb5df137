/** A consumer that polls until stopped, as Lambda's event sources do for the local runtime. */
export interface PollingLoop {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Calls `poll` again and again until `stop`. `poll` returns how many records it handled;
 * after an empty poll the loop waits `idleMs` (a long poll waits inside `poll` and needs
 * none). A failing poll is reported and retried a second later, never ending the loop.
 */
export function pollingLoop(
  poll: (signal: AbortSignal) => Promise<number>,
  options: { readonly idleMs?: number; readonly onError?: (error: unknown) => void } = {},
): PollingLoop {
  let running: Promise<void> | undefined;
  let abort: AbortController | undefined;

  async function loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const received = await poll(signal);
        if (received === 0 && options.idleMs) await new Promise((done) => setTimeout(done, options.idleMs));
      } catch (error) {
        if (signal.aborted) return;
        options.onError?.(error);
        await new Promise((done) => setTimeout(done, 1000));
      }
    }
  }

  return {
    start() {
      if (running) return;
      abort = new AbortController();
      running = loop(abort.signal);
    },
    async stop() {
      abort?.abort();
      await running;
      running = undefined;
    },
  };
}
