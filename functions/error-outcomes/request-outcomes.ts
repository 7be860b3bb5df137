/** Every route's failures: the credential, the scope, the limit, the body, the Idempotency-Key, a race lost. */
import {
  ConcurrentModification,
  Forbidden,
  IdempotencyKeyInFlight,
  IdempotencyKeyReused,
  RateLimited,
  Unauthorized,
  ValidationFailed,
} from '../domain/errors';
import { rateLimitHeaders } from '../http/responses';
import {
  type Entry,
  entry,
  general,
  onEveryRoute,
  toCart,
  toOrders,
  HANDSHAKE_TITLES,
  STATUS_TITLES,
} from './outcome-kit';

export const REQUEST_OUTCOMES: readonly Entry[] = [
  entry(Unauthorized, { api: onEveryRoute(general(401, 'UNAUTHORIZED')) }),
  entry(Forbidden, {
    api: onEveryRoute(general(403, 'FORBIDDEN')),
    // In the module, another organization's order is one the user has not got.
    module: (_, places) => ({
      status: 404,
      title: 'Order not found',
      message: 'Your organization has no order with this ID.',
      links: [{ ...toOrders(places), primary: true }],
    }),
  }),
  entry(RateLimited, {
    api: onEveryRoute((error) => ({
      status: 429,
      body: {
        error: STATUS_TITLES[429],
        message: `Rate limit of ${error.limit.limit} requests per minute exceeded`,
        code: 'RATE_LIMIT_EXCEEDED',
        details: [],
        retry_after: error.limit.resetSeconds,
      },
      headers: { 'Retry-After': String(error.limit.resetSeconds), ...rateLimitHeaders(error.limit) },
    })),
  }),
  entry(ValidationFailed, {
    api: {
      general: (error) => ({
        status: 400,
        body: { error: STATUS_TITLES[400], message: error.message, code: 'VALIDATION_ERROR', details: error.issues },
      }),
      handshake: (error) => ({ status: 400, body: { error: HANDSHAKE_TITLES.invalid, details: error.issues } }),
    },
    module: (error, places) => ({
      status: 400,
      title: 'Please check that',
      message: error.issues.map((issue) => issue.message).join('; ') || error.message,
      links: [toCart(places)],
    }),
  }),
  entry(IdempotencyKeyReused, { api: { general: general(400, 'IDEMPOTENCY_KEY_REUSED') } }),
  entry(IdempotencyKeyInFlight, { api: { general: general(409, 'IDEMPOTENCY_KEY_IN_USE') } }),
  entry(ConcurrentModification, {
    api: {
      general: general(409, 'CONCURRENT_MODIFICATION', () => ({
        message: 'The order changed while this request was applied; read it and retry',
      })),
    },
    module: (_, places) => ({
      status: 409,
      title: 'Your cart changed while ordering',
      message:
        'The order was submitted twice or the cart changed at the same moment. It was placed at most once: check Orders before trying again.',
      links: [{ ...toOrders(places), primary: true }, toCart(places)],
    }),
  }),
];
