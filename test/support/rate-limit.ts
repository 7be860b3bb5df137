import type { HttpFunctionName } from '../../functions/resources/resource-definitions';
import { type ApiEndpointName, ROUTES } from '../../functions/routes';
import type { TestStack } from './test-stack';

/** The function whose rate limiter counts an endpoint: its routes' function in the route table. */
const countedBy = (endpoint: ApiEndpointName) => {
  const route = ROUTES.find((candidate) => candidate.host === 'api' && candidate.endpoint === endpoint);
  if (!route) throw new Error(`No route counts ${endpoint}`);
  return route.fn as Exclude<HttpFunctionName, 'embed'>;
};

const BATCH = 50;

/**
 * Uses up a partner's window for an endpoint through the service's own rate limiter
 * (what `limit` requests would do), so the next request is a 429 without sending them.
 */
export async function exhaustRateLimit(
  stack: TestStack,
  partnerId: string,
  endpoint: ApiEndpointName,
  limit: number,
): Promise<void> {
  const { rateLimiter } = stack.deps.functions[countedBy(endpoint)];
  // In batches: hundreds of concurrent writes can outwait the SDK's connection timeout on a busy machine.
  for (let used = 0; used < limit; used += BATCH) {
    const batch = Math.min(BATCH, limit - used);
    await Promise.all(
      Array.from({ length: batch }, () => rateLimiter.consume(partnerId, endpoint, Number.MAX_SAFE_INTEGER)),
    );
  }
}
