import { ConcurrentModification } from '../errors';

const jitteredBackoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));

/**
 * Runs `attempt` again (re-reading what it depends on) while it loses to a concurrent
 * writer, at most `maxAttempts` times. Losing every time means something is wrong, not a
 * conflict the caller made: that last failure is an Error of ours (a 500), as SetupContention is for setup.
 */
export async function retryOnContention<T>(
  attempt: () => Promise<T>,
  maxAttempts = 5,
  backoff: (attempt: number) => Promise<void> = jitteredBackoff,
): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConcurrentModification)) throw error;
      if (tried >= maxAttempts) throw new Error(`lost ${tried} races in a row`, { cause: error });
      await backoff(tried);
    }
  }
}
