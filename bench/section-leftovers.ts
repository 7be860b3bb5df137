/**
 * What a bench section leaves running when it returns (issue 47, item 5): each section
 * starts its own stack and must end everything it started (servers, sockets, pollers,
 * timers, DynamoDB Local's JVM) before the next one measures. A section that leaks takes
 * CPU, sockets or memory from the sections after it, and their figures say nothing.
 *
 * Node's active resources (libuv handles and requests that keep the process alive: TCP
 * sockets and servers, timers, child processes) are counted before and after the section;
 * what it added and has not ended within a grace period is what survived it. Its garbage is
 * collected before the next section starts, so that one does not pay for this one's heap.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Closing is asynchronous (a socket's FIN, a child's exit): how long a section's leftovers may take to end. */
const GRACE_MS = 5000;

export type ResourceCounts = Readonly<Record<string, number>>;

/** The active resources by kind, e.g. { TCPSocketWrap: 2, Timeout: 1 }. */
export function activeResources(): ResourceCounts {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** What `after` holds beyond `before`, kind by kind (empty when nothing survived). */
function survivors(before: ResourceCounts, after: ResourceCounts): ResourceCounts {
  return Object.fromEntries(
    Object.entries(after).flatMap(([kind, count]) => {
      const extra = count - (before[kind] ?? 0);
      return extra > 0 ? [[kind, extra]] : [];
    }),
  );
}

export const describeSurvivors = (left: ResourceCounts): string =>
  Object.entries(left)
    .map(([kind, count]) => `${kind}×${count}`)
    .join(', ') || 'nothing';

/**
 * Runs `section`, then waits (up to the grace period) for the resources it added to end,
 * and returns what is still there. The count is taken when nothing else of the run is busy,
 * so any addition is the section's own.
 */
export async function runSection(
  section: () => Promise<void>,
  before: ResourceCounts = activeResources(),
): Promise<{ left: ResourceCounts; heapMb: number }> {
  await section();
  const deadline = Date.now() + GRACE_MS;
  let left = survivors(before, activeResources());
  while (Object.keys(left).length > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    // The timer above is the check's own, and ended by the time it is counted.
    left = survivors(before, activeResources());
  }
  collectGarbage();
  return { left, heapMb: process.memoryUsage().heapUsed / 2 ** 20 };
}

/** A full collection now, rather than in the middle of the next section's measurement. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}
