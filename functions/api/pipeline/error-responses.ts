import {
  ConcurrentModification,
  EmbedAccessDenied,
  EmptyCart,
  Forbidden,
  IdempotencyKeyInFlight,
  IdempotencyKeyReused,
  InvalidOrderTransition,
  OrderNotFound,
  OrganizationNotFound,
  ProductUnavailable,
  ProfileNotFound,
  ProfileNotLinked,
  RateLimited,
  ShippingLocationAlreadyExists,
  ShippingLocationNotFound,
  ShippingLocationUnavailable,
  Unauthorized,
  UserAlreadyExists,
  ValidationFailed,
  WebhookEndpointNotConfigured,
  WebhookEventNotSubscribed,
} from '../../domain/errors';
import type { ApiEndpoint } from './endpoints';
import { clearedSessionCookie } from '../../embed-host/session-cookie';
import { linkUnusablePage, unavailablePage } from '../../embed-host/host-pages';
import { type JsonResponse, html, json, rateLimitHeaders } from './responses';

/**
 * The one place where failures become HTTP. Bodies follow the contract's tables per
 * endpoint: setup, the order API (and every authentication failure) use `{ error,
 * message, code, details }`; the handshake's own errors use `{ error, details }`.
 */
export function errorResponse(error: unknown, endpoint: ApiEndpoint['name']): JsonResponse {
  const general = (status: number, errorType: string, code: string, message: string, extra: object = {}) =>
    json(status, { error: errorType, message, code, details: [], ...extra });

  if (error instanceof Unauthorized) return general(401, 'Unauthorized', 'UNAUTHORIZED', error.message);
  if (error instanceof Forbidden) return general(403, 'Forbidden', 'FORBIDDEN', error.message);
  if (error instanceof RateLimited) {
    return json(
      429,
      {
        error: 'Too Many Requests',
        message: `Rate limit of ${error.limit.limit} requests per minute exceeded`,
        code: 'RATE_LIMIT_EXCEEDED',
        details: [],
        retry_after: error.limit.resetSeconds,
      },
      { 'Retry-After': String(error.limit.resetSeconds), ...rateLimitHeaders(error.limit) },
    );
  }

  if (endpoint === 'handshake') {
    if (error instanceof ValidationFailed) return json(400, { error: 'Invalid request body', details: error.issues });
    if (error instanceof ProfileNotLinked) {
      return json(400, { error: 'Profile not set up for authentication', details: error.message });
    }
    if (error instanceof ProfileNotFound) return json(404, { error: 'Profile not found', details: error.message });
    return json(500, {
      error: 'Failed to create authentication session',
      details: 'The session could not be created; retry with exponential backoff',
    });
  }

  if (error instanceof ValidationFailed) {
    return json(400, { error: 'Validation Error', message: error.message, code: 'VALIDATION_ERROR', details: error.issues });
  }
  if (error instanceof UserAlreadyExists) {
    return general(409, 'Conflict', 'USER_ALREADY_EXISTS', error.message, {
      data: { profileId: error.profileId, email: error.email },
    });
  }
  if (error instanceof IdempotencyKeyReused) return general(400, 'Validation Error', 'IDEMPOTENCY_KEY_REUSED', error.message);
  if (error instanceof IdempotencyKeyInFlight) return general(409, 'Conflict', 'IDEMPOTENCY_KEY_IN_USE', error.message);

  // ---- The partner's users and shipping locations after setup (docs/setup.md). ORGANIZATION_NOT_FOUND
  // and PROFILE_NOT_FOUND are the order API's mappings below; everything else here is theirs alone.
  if (error instanceof ShippingLocationNotFound) return general(404, 'Not Found', 'SHIPPING_LOCATION_NOT_FOUND', error.message);
  if (error instanceof ShippingLocationAlreadyExists) return general(409, 'Conflict', 'SHIPPING_LOCATION_ALREADY_EXISTS', error.message);
  // ---- end of the partner's users and shipping locations

  // The order API (docs/orders-api.md).
  if (error instanceof InvalidOrderTransition) {
    return general(409, 'Conflict', 'INVALID_ORDER_TRANSITION', error.message, {
      details: [{ code: 'INVALID_ORDER_TRANSITION', message: error.message, path: ['status'] }],
      data: { order_id: error.orderId, status: error.from, requested_status: error.to },
    });
  }
  if (error instanceof OrderNotFound) return general(404, 'Not Found', 'ORDER_NOT_FOUND', error.message);
  if (error instanceof OrganizationNotFound) {
    return general(404, 'Not Found', 'ORGANIZATION_NOT_FOUND', `No organization with internal_org_id "${error.internalOrgId}"`);
  }
  if (error instanceof ProfileNotFound) return general(404, 'Not Found', 'PROFILE_NOT_FOUND', error.message);
  if (error instanceof ProfileNotLinked) return general(400, 'Validation Error', 'PROFILE_NOT_LINKED', error.message);
  if (error instanceof ProductUnavailable) {
    return general(400, 'Validation Error', 'PRODUCT_UNAVAILABLE', error.message, {
      details: error.productIds.map((productId) => ({
        code: 'PRODUCT_UNAVAILABLE',
        message: `${productId} is not an active catalog product`,
        path: ['items'],
      })),
    });
  }
  if (error instanceof ShippingLocationUnavailable) {
    return general(400, 'Validation Error', 'SHIPPING_LOCATION_UNAVAILABLE', error.message, {
      details: [{ code: 'SHIPPING_LOCATION_UNAVAILABLE', message: error.message, path: ['internal_shipping_location_id'] }],
    });
  }
  if (error instanceof EmptyCart) return general(400, 'Validation Error', 'EMPTY_CART', error.message);
  if (error instanceof ConcurrentModification) {
    return general(409, 'Conflict', 'CONCURRENT_MODIFICATION', 'The order changed while this request was applied; read it and retry');
  }

  // POST /v1/webhooks/test (docs/webhooks.md, "Test events").
  if (error instanceof WebhookEndpointNotConfigured) return general(409, 'Conflict', 'WEBHOOK_ENDPOINT_NOT_CONFIGURED', error.message);
  if (error instanceof WebhookEventNotSubscribed) {
    return general(409, 'Conflict', 'WEBHOOK_EVENT_NOT_SUBSCRIBED', error.message, {
      details: [{ code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED', message: error.message, path: ['event'] }],
    });
  }

  if (endpoint === 'setup') return general(500, 'Internal Server Error', 'SETUP_ERROR', 'Setup failed; retry with exponential backoff');
  return general(500, 'Internal Server Error', 'INTERNAL_ERROR', 'The request failed; retry with exponential backoff');
}

/**
 * The embed host's failures, as pages for a person in an iframe: any unusable link or
 * session is the same 401 page (a refused session cookie is also cleared, but never on
 * a cross-site request, which must not be able to sign the user out); anything
 * else is a generic 500 page.
 */
export function embedErrorResponse(error: unknown, frameAncestors: readonly string[] = []): JsonResponse {
  if (error instanceof EmbedAccessDenied) {
    return error.refused === 'session'
      ? html(401, linkUnusablePage(frameAncestors, 'session-ended'), { cookies: [clearedSessionCookie()] })
      : html(401, linkUnusablePage(frameAncestors, 'link-unusable'));
  }
  return html(500, unavailablePage(frameAncestors));
}
