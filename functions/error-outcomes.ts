/**
 * What each failure of the domain becomes, written once: the partner API's status and
 * body (per error shape: a route's row in functions/routes.ts says which shape its own
 * failures take), and the embedded module's page and status. The API's error responder
 * and the module's read this table; neither branches on routes. A failure with no entry,
 * or none for the route's shape or for the module, is not the caller's: the API answers
 * the route's 500 body, the module leaves it to the embed host's pages.
 *
 * The two columns differ on purpose where the contracts do: an empty cart at checkout is
 * the module's 409 (docs/module.md) but the API's 400 EMPTY_CART (docs/orders-api.md).
 */
import {
  ApprovalCannotBePlaced,
  ApprovalForbidden,
  ApprovalNotFound,
  ApprovalNotPending,
  ApprovalRequired,
  ConcurrentModification,
  DeliveryInFlight,
  DeliveryNotFound,
  EmptyCart,
  Forbidden,
  FormTooLarge,
  IdempotencyKeyInFlight,
  IdempotencyKeyReused,
  InvalidOrderTransition,
  OrderGuideChanged,
  OrderNotFound,
  OrganizationNotFound,
  ProductNotFound,
  ProductUnavailable,
  ProfileNotFound,
  ProfileNotLinked,
  RateLimited,
  RequestForgeryRefused,
  SelfApprovalForbidden,
  ShippingLocationAlreadyExists,
  ShippingLocationNotFound,
  ShippingLocationUnavailable,
  Unauthorized,
  UserAlreadyExists,
  ValidationFailed,
  WebhookEndpointNotConfigured,
  WebhookEndpointNotFound,
  WebhookEventNotSubscribed,
} from './domain/errors';
import type { ModulePaths } from './embed-host/module/module-paths';
import { formatUsd, fromCents } from './domain/money';
import { rateLimitHeaders } from './api/pipeline/responses';
import type { ErrorShape } from './routes';

export interface ApiOutcome {
  readonly status: number;
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

interface ModuleLink {
  readonly href: string;
  readonly label: string;
  readonly primary?: boolean;
}

/** A page of the module that says what went wrong and where to go next (never a stack trace, never which check refused a forged request). */
export interface ModuleOutcome {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly links: readonly ModuleLink[];
}

type Places = Pick<ModulePaths, 'home' | 'cart' | 'checkout' | 'orders' | 'orderGuide' | 'approvals' | 'approval'>;

interface Outcome<E> {
  /** By the route's error shape; a shape without an entry answers the route's 500. */
  readonly api?: Partial<Record<ErrorShape['shape'], (error: E) => ApiOutcome>>;
  readonly module?: (error: E, places: Places) => ModuleOutcome;
}

interface Entry {
  readonly type: abstract new (...args: never[]) => Error;
  readonly outcome: Outcome<never>;
}

const entry = <E extends Error>(type: abstract new (...args: never[]) => E, outcome: Outcome<E>): Entry => ({
  type,
  outcome: outcome as Outcome<never>,
});

/** The general body: all four fields, `details` `[]` when there is nothing to list. */
const general =
  <E extends Error>(
    status: number,
    error: string,
    code: string,
    extra: (failure: E) => Record<string, unknown> = () => ({}),
  ) =>
  (failure: E): ApiOutcome => ({
    status,
    body: { error, message: failure.message, code, details: [], ...extra(failure) },
  });

/** The same answer whatever the route's shape: authentication, permission and rate-limit failures. */
const onEveryRoute = <E extends Error>(answer: (error: E) => ApiOutcome) => ({ general: answer, handshake: answer });

const toCart = (places: Places): ModuleLink => ({ href: places.cart, label: 'Go to cart', primary: true });
const toOrders = (places: Places): ModuleLink => ({ href: places.orders, label: 'View orders' });
const toRequest = (places: Places, requestId: string): ModuleLink => ({
  href: places.approval(requestId),
  label: 'Back to the request',
  primary: true,
});

/** What became of a request someone else decided first, for the one who came second. */
const NOT_PENDING: Readonly<
  Record<ApprovalNotPending['status'], { title: string; message: (by: string | undefined) => string }>
> = {
  approved: {
    title: 'Already approved',
    message: (by) =>
      `${by ?? 'Another approver'} approved this request first, and its order was placed. Nothing else was changed.`,
  },
  rejected: {
    title: 'Already rejected',
    message: (by) => `${by ?? 'Another approver'} rejected this request first. Nothing else was changed.`,
  },
  withdrawn: {
    title: 'Withdrawn by the requester',
    message: () => 'The requester withdrew this request, so there is nothing left to decide. Nothing else was changed.',
  },
  expired: {
    title: 'This request expired',
    message: () =>
      'No one decided it within 7 days, so it expired and nothing was ordered. The requester can submit it again.',
  },
};

const ERROR_OUTCOMES: readonly Entry[] = [
  entry(Unauthorized, { api: onEveryRoute(general(401, 'Unauthorized', 'UNAUTHORIZED')) }),
  entry(Forbidden, {
    api: onEveryRoute(general(403, 'Forbidden', 'FORBIDDEN')),
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
        error: 'Too Many Requests',
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
        body: { error: 'Validation Error', message: error.message, code: 'VALIDATION_ERROR', details: error.issues },
      }),
      handshake: (error) => ({ status: 400, body: { error: 'Invalid request body', details: error.issues } }),
    },
    module: (error, places) => ({
      status: 400,
      title: 'Please check that',
      message: error.issues.map((issue) => issue.message).join('; ') || error.message,
      links: [toCart(places)],
    }),
  }),
  entry(ProfileNotLinked, {
    api: {
      general: general(400, 'Validation Error', 'PROFILE_NOT_LINKED'),
      handshake: (error) => ({
        status: 400,
        body: { error: 'Profile not set up for authentication', details: error.message },
      }),
    },
  }),
  entry(ProfileNotFound, {
    api: {
      general: general(404, 'Not Found', 'PROFILE_NOT_FOUND'),
      handshake: (error) => ({ status: 404, body: { error: 'Profile not found', details: error.message } }),
    },
  }),
  entry(UserAlreadyExists, {
    api: {
      general: general(409, 'Conflict', 'USER_ALREADY_EXISTS', (error) => ({
        data: { profileId: error.profileId, email: error.email },
      })),
    },
  }),
  entry(IdempotencyKeyReused, { api: { general: general(400, 'Validation Error', 'IDEMPOTENCY_KEY_REUSED') } }),
  entry(IdempotencyKeyInFlight, { api: { general: general(409, 'Conflict', 'IDEMPOTENCY_KEY_IN_USE') } }),

  // The order API (docs/orders-api.md) and the module's orders (docs/module.md).
  entry(InvalidOrderTransition, {
    api: {
      general: general(409, 'Conflict', 'INVALID_ORDER_TRANSITION', (error) => ({
        details: [{ code: 'INVALID_ORDER_TRANSITION', message: error.message, path: ['status'] }],
        data: { order_id: error.orderId, status: error.from, requested_status: error.to },
      })),
    },
  }),
  entry(OrderNotFound, {
    api: { general: general(404, 'Not Found', 'ORDER_NOT_FOUND') },
    module: (_, places) => ({
      status: 404,
      title: 'Order not found',
      message: 'Your organization has no order with this ID.',
      links: [{ ...toOrders(places), primary: true }],
    }),
  }),
  entry(OrganizationNotFound, {
    // The domain's message names the partner; the partner is told only its own identifier.
    api: {
      general: general(404, 'Not Found', 'ORGANIZATION_NOT_FOUND', (error) => ({
        message: `No organization with internal_org_id "${error.internalOrgId}"`,
      })),
    },
  }),
  entry(ProductUnavailable, {
    api: {
      general: general(400, 'Validation Error', 'PRODUCT_UNAVAILABLE', (error) => ({
        details: error.productIds.map((productId) => ({
          code: 'PRODUCT_UNAVAILABLE',
          message: `${productId} is not an active catalog product`,
          path: ['items'],
        })),
      })),
    },
    module: (error, places) => ({
      status: 409,
      title: 'Some products are no longer available',
      message: `Not available: ${error.productIds.join(', ')}. Remove them from your cart and try again; nothing was ordered.`,
      links: [toCart(places)],
    }),
  }),
  // The module's product page (docs/module.md): unknown or no longer sold.
  entry(ProductNotFound, {
    module: (_, places) => ({
      status: 404,
      title: 'Product not found',
      message: 'This product is not in the catalog, or is no longer sold.',
      links: [{ href: places.home, label: 'Browse supplies', primary: true }],
    }),
  }),
  // The partner's shipping locations after setup (docs/setup.md).
  entry(ShippingLocationNotFound, { api: { general: general(404, 'Not Found', 'SHIPPING_LOCATION_NOT_FOUND') } }),
  entry(ShippingLocationAlreadyExists, {
    api: { general: general(409, 'Conflict', 'SHIPPING_LOCATION_ALREADY_EXISTS') },
  }),
  entry(ShippingLocationUnavailable, {
    api: {
      general: general(400, 'Validation Error', 'SHIPPING_LOCATION_UNAVAILABLE', (error) => ({
        details: [
          { code: 'SHIPPING_LOCATION_UNAVAILABLE', message: error.message, path: ['internal_shipping_location_id'] },
        ],
      })),
    },
    module: (_, places) => ({
      status: 409,
      title: 'Choose another shipping address',
      message: 'That shipping location is no longer available for your organization. Nothing was ordered.',
      links: [{ href: places.checkout, label: 'Back to checkout', primary: true }],
    }),
  }),
  entry(EmptyCart, {
    api: { general: general(400, 'Validation Error', 'EMPTY_CART') },
    module: (_, places) => ({
      status: 409,
      title: 'Your cart is empty',
      message: 'There was nothing to order. If you just placed an order, you will find it under Orders.',
      links: [
        { ...toOrders(places), primary: true },
        { href: places.home, label: 'Browse supplies' },
      ],
    }),
  }),
  entry(ConcurrentModification, {
    api: {
      general: general(409, 'Conflict', 'CONCURRENT_MODIFICATION', () => ({
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
  // The organization's shared order guide (docs/module.md): a line someone else changed since the page was shown.
  entry(OrderGuideChanged, {
    module: (_, places) => ({
      status: 409,
      title: 'The order guide changed',
      message:
        'Someone in your organization changed or removed this line after you opened the page, so nothing was changed. Check the order guide and try again.',
      links: [{ href: places.orderGuide, label: 'Back to the order guide', primary: true }],
    }),
  }),
  entry(RequestForgeryRefused, {
    module: (_, places) => ({
      status: 403,
      title: 'Request refused',
      message:
        'This action could not be confirmed as coming from this page, so nothing was changed. Reload the page and try again.',
      links: [{ href: places.home, label: 'Back to the catalog', primary: true }],
    }),
  }),
  entry(FormTooLarge, {
    module: (_, places) => ({
      status: 413,
      title: 'Form too large',
      message:
        'This form sent far more than the page ever sends, so nothing was changed. Reload the page and try again.',
      links: [{ href: places.home, label: 'Back to the catalog', primary: true }],
    }),
  }),

  // Approval requests (docs/module.md, "Approvals"); the API codes are for the partner routes that read and decide them.
  entry(ApprovalRequired, {
    api: {
      general: general(409, 'Conflict', 'APPROVAL_REQUIRED', (error) => ({
        data:
          error.reason === 'order_limit'
            ? {
                limit_reason: error.reason,
                total: fromCents(error.totalCents),
                order_limit: fromCents(error.limitCents),
              }
            : {
                limit_reason: error.reason,
                total: fromCents(error.totalCents),
                monthly_limit: fromCents(error.limitCents),
                spent_this_month: fromCents(error.spentCents ?? 0),
              },
      })),
    },
    module: (error, places) => ({
      status: 409,
      title: 'This order needs approval',
      message: `${
        error.reason === 'order_limit'
          ? `Its total, ${formatUsd(error.totalCents)}, is above your order limit of ${formatUsd(error.limitCents)}`
          : `Its total, ${formatUsd(error.totalCents)}, would take this month's orders above your monthly limit of ${formatUsd(error.limitCents)}`
      }, so an approver in your organization decides on it. Nothing was ordered: submit it for approval from checkout.`,
      links: [{ href: places.checkout, label: 'Back to checkout', primary: true }],
    }),
  }),
  entry(ApprovalNotFound, {
    api: { general: general(404, 'Not Found', 'APPROVAL_REQUEST_NOT_FOUND') },
    module: (_, places) => ({
      status: 404,
      title: 'Approval request not found',
      message: 'Your organization has no approval request with this ID that you can see.',
      links: [{ href: places.approvals, label: 'Approval requests', primary: true }, toOrders(places)],
    }),
  }),
  entry(ApprovalNotPending, {
    api: {
      general: general(409, 'Conflict', 'APPROVAL_NOT_PENDING', (error) => ({
        data: { approval_request_id: error.requestId, status: error.status },
      })),
    },
    module: (error, places) => ({
      status: 409,
      title: NOT_PENDING[error.status].title,
      message: NOT_PENDING[error.status].message(error.decidedBy),
      links: [toRequest(places, error.requestId)],
    }),
  }),
  entry(SelfApprovalForbidden, {
    api: { general: general(403, 'Forbidden', 'SELF_APPROVAL_FORBIDDEN') },
    module: (error, places) => ({
      status: 403,
      title: 'This is your own request',
      message: 'Another approver in your organization decides on it. Nothing was changed.',
      links: [toRequest(places, error.requestId)],
    }),
  }),
  entry(ApprovalForbidden, {
    api: { general: general(403, 'Forbidden', 'APPROVAL_FORBIDDEN') },
    module: (error, places) => ({
      status: 403,
      title: error.refused === 'not-approver' ? 'Only approvers decide requests' : 'Only the requester can withdraw it',
      message:
        error.refused === 'not-approver'
          ? 'Approving and rejecting requests is for the approvers of your organization. Nothing was changed.'
          : 'A request can be withdrawn only by whoever submitted it. Nothing was changed.',
      links: [toRequest(places, error.requestId)],
    }),
  }),
  entry(ApprovalCannotBePlaced, {
    api: {
      general: general(409, 'Conflict', 'APPROVAL_CANNOT_BE_PLACED', (error) => ({
        details: [
          {
            code: error.refused === 'location-unavailable' ? 'SHIPPING_LOCATION_UNAVAILABLE' : 'REQUESTER_INACTIVE',
            message: error.message,
            path: [],
          },
        ],
      })),
    },
    module: (error, places) => ({
      status: 409,
      title:
        error.refused === 'location-unavailable'
          ? 'The shipping address is no longer used'
          : 'The requester can no longer order',
      message:
        error.refused === 'location-unavailable'
          ? 'This request ships to a location your organization no longer uses, so it cannot be ordered as submitted. Nothing was ordered: reject it with a reason, and the requester can submit it again to another address.'
          : 'The person who submitted this request was deactivated, so it cannot be ordered in their name. Nothing was ordered: reject it with a reason.',
      links: [toRequest(places, error.requestId)],
    }),
  }),

  // POST /v1/webhooks/test (docs/webhooks.md, "Test events").
  entry(WebhookEndpointNotConfigured, {
    api: { general: general(409, 'Conflict', 'WEBHOOK_ENDPOINT_NOT_CONFIGURED') },
  }),
  entry(WebhookEventNotSubscribed, {
    api: {
      general: general(409, 'Conflict', 'WEBHOOK_EVENT_NOT_SUBSCRIBED', (error) => ({
        details: [{ code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED', message: error.message, path: ['event'] }],
      })),
    },
  }),

  // The partner's deliveries and endpoint (docs/webhooks.md, "Inspecting and retrying deliveries").
  entry(DeliveryNotFound, { api: { general: general(404, 'Not Found', 'DELIVERY_NOT_FOUND') } }),
  entry(DeliveryInFlight, { api: { general: general(409, 'Conflict', 'DELIVERY_IN_FLIGHT') } }),
  entry(WebhookEndpointNotFound, { api: { general: general(404, 'Not Found', 'WEBHOOK_ENDPOINT_NOT_CONFIGURED') } }),
];

const outcomeOf = (error: unknown): Outcome<unknown> | undefined =>
  ERROR_OUTCOMES.find(({ type }) => error instanceof type)?.outcome as Outcome<unknown> | undefined;

/** The route's body for a failure that is ours: never the failure's own details. */
function serverErrorOutcome(errors: ErrorShape): ApiOutcome {
  return errors.shape === 'handshake'
    ? { status: 500, body: { ...errors.serverError } }
    : {
        status: 500,
        body: {
          error: 'Internal Server Error',
          message: errors.serverError.message,
          code: errors.serverError.code,
          details: [],
        },
      };
}

/** The API's answer to a failure, in the route's error shape. */
export const apiOutcome = (error: unknown, errors: ErrorShape): ApiOutcome =>
  outcomeOf(error)?.api?.[errors.shape]?.(error) ?? serverErrorOutcome(errors);

/** The module's page for a failure, or undefined when it is not the module's to explain. */
export const moduleOutcome = (error: unknown, places: Places): ModuleOutcome | undefined =>
  outcomeOf(error)?.module?.(error, places);
