import type { TestStack } from './test-stack';

/**
 * Uses up a partner's window for an endpoint through the service's own rate limiter
 * (what `limit` requests would do), so the next request is a 429 without sending them.
 */
export async function exhaustRateLimit(stack: TestStack, partnerId: string, endpoint: 'setup' | 'handshake', limit: number): Promise<void> {
  const { rateLimiter } = stack.deps.functions[endpoint];
  await Promise.all(Array.from({ length: limit }, () => rateLimiter.consume(partnerId, endpoint, Number.MAX_SAFE_INTEGER)));
}
