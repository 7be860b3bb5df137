import type { ApiEndpointName } from '../../functions/api/pipeline/endpoints';
import type { TestStack } from './test-stack';

/** The function whose rate limiter counts each endpoint (the order API's routes are one function). */
const COUNTED_BY = {
  setup: 'setup',
  handshake: 'handshake',
  'catalog-products': 'ordersApi',
  'order-get': 'ordersApi',
  'order-list': 'ordersApi',
  'sandbox-order-create': 'ordersApi',
  'sandbox-order-transition': 'ordersApi',
  'webhook-test': 'webhookTest',
  'organization-user-get': 'setup',
  'organization-user-update': 'setup',
  'shipping-location-create': 'setup',
  'shipping-location-update': 'setup',
} as const satisfies Record<ApiEndpointName, keyof TestStack['deps']['functions']>;

const BATCH = 50;

/**
 * Uses up a partner's window for an endpoint through the service's own rate limiter
 * (what `limit` requests would do), so the next request is a 429 without sending them.
 */
export async function exhaustRateLimit(stack: TestStack, partnerId: string, endpoint: ApiEndpointName, limit: number): Promise<void> {
  const { rateLimiter } = stack.deps.functions[COUNTED_BY[endpoint]];
  // In batches: hundreds of concurrent writes can outwait the SDK's connection timeout on a busy machine.
  for (let used = 0; used < limit; used += BATCH) {
    const batch = Math.min(BATCH, limit - used);
    await Promise.all(Array.from({ length: batch }, () => rateLimiter.consume(partnerId, endpoint, Number.MAX_SAFE_INTEGER)));
  }
}
