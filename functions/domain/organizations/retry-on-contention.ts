import { ConcurrentModification } from '../errors';

const jitteredBackoff = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));

/**
 * Runs `attempt` again (re-reading what it depends on) while it loses to a concurrent
 * writer, at most `maxAttempts` times; the last ConcurrentModification goes to the caller.
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
      if (!(error instanceof ConcurrentModification) || tried >= maxAttempts) throw error;
      await backoff(tried);
    }
  }
}
