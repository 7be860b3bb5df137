/**
 * POST /v1/sandbox/orders in the partner API document: the request schema the handler
 * parses with (`SandboxOrderRequest`), the body it answers with (`OrderChangeBody`) and
 * the errors `functions/error-outcomes/` makes for it. Sandbox only.
 */
import { SandboxOrderRequest } from '../../domain/orders/sandbox-order-request';
import { apiRoute } from '../../routes';
import {
  OrderingProfileNotFoundBody,
  SalesTaxUnavailableBody,
  SandboxOrderBadRequestBody,
} from '../pipeline/error-bodies';
import { PENDING_ORDER } from './order-examples';
import { OrderChangeBody } from './order-response';
import { PENDING_APPROVAL_REQUEST } from '../approval-requests/examples';
import { ApprovalRequestChangeBody } from '../approval-requests/response';
import type { RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  internalErrorResponse,
} from '../openapi/standard-responses';

const SANDBOX_ORDER_CREATE_ROUTE_ROW = apiRoute('sandbox-order-create');

const profileForbidden = forbiddenResponse(SANDBOX_ORDER_CREATE_ROUTE_ROW.scope, 'profile');

export const CREATE_SANDBOX_ORDER_ROUTE: RouteDocument = {
  operationId: 'createSandboxOrder',
  tag: 'Sandbox orders',
  summary: 'Place an order as one of your users (sandbox)',
  description: [
    "Places an order as the user would in the embedded module (the user's cart is not touched), so your CI can produce webhooks without a browser; `order.created` follows.",
    '',
    "Above the user's `orderLimit` the sandbox does what the module's checkout has the user do: nothing is ordered, the order is submitted for approval instead, and the answer is 202 with the approval request (`approval.requested` follows, to an endpoint subscribed to it). Decide it with `POST /v1/sandbox/approval-requests/{approval_request_id}/approve` or `/reject`.",
    '',
    "Name the user as the handshake does: exactly one of `internal_user_id` and `profile_id` (`IDENTIFIER_REQUIRED`, `CONFLICTING_FIELDS`), plus `internal_org_id` when the `internal_user_id` is in several of your organizations (`AMBIGUOUS_USER`). `items`: 1-50 lines of an active `product_id` with a `quantity` of 1-999, each product once (`DUPLICATE_ID`). `internal_shipping_location_id`: one of the organization's active locations; absent, the default. Unknown fields are ignored.",
    '',
    "There is no `Idempotency-Key` here: a retried placement places a second order, so after a lost answer list the organization's orders before trying again.",
  ].join('\n'),
  requestBody: {
    name: 'SandboxOrderRequest',
    schema: SandboxOrderRequest,
    example: {
      internal_user_id: 'u-1',
      internal_org_id: 'acme-1',
      items: [{ product_id: 'GLV-NIT-M-100', quantity: 2 }],
      internal_shipping_location_id: 'loc-1',
    },
  },
  responses: {
    201: {
      description: 'Placed: the new order, `pending`.',
      body: { name: 'OrderChange', schema: OrderChangeBody },
      examples: { placed: { summary: 'A new order', value: { success: true, order: PENDING_ORDER } } },
      headers: AUTHENTICATED_HEADERS,
    },
    202: {
      description:
        "Above the user's order limit: nothing is ordered; the new approval request, `pending`, waits for an approver of the organization (7 days at most).",
      body: { name: 'ApprovalRequestChange', schema: ApprovalRequestChangeBody },
      examples: {
        approvalRequested: {
          summary: 'Submitted for approval',
          value: { success: true, approval_request: PENDING_APPROVAL_REQUEST },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        'The body is invalid (`VALIDATION_ERROR`, every problem in `details`; the body checks `UNSUPPORTED_CONTENT_TYPE`, `BODY_REQUIRED`, `MALFORMED_JSON`, `INVALID_UTF8` (not UTF-8), `INVALID_BODY`, `BODY_TOO_LARGE`, `NESTING_TOO_DEEP` come first), a product is unknown or inactive (`PRODUCT_UNAVAILABLE`, one detail each), the shipping location is not an active one of the organization or there is no default (`SHIPPING_LOCATION_UNAVAILABLE`), or the user cannot sign in (`PROFILE_NOT_LINKED`: disabled).',
      body: { name: 'SandboxOrderBadRequestError', schema: SandboxOrderBadRequestBody },
      examples: {
        validation: {
          summary: 'Field rules',
          value: {
            error: 'Validation Error',
            message: 'The request body is invalid (1 problem; see details)',
            code: 'VALIDATION_ERROR',
            details: [{ code: 'TOO_SMALL', message: 'items must have at least 1 item', path: ['items'] }],
          },
        },
        productUnavailable: {
          summary: 'An inactive product',
          value: {
            error: 'Validation Error',
            message: 'Not available: RETIRED-1',
            code: 'PRODUCT_UNAVAILABLE',
            details: [
              { code: 'PRODUCT_UNAVAILABLE', message: 'RETIRED-1 is not an active catalog product', path: ['items'] },
            ],
          },
        },
        shippingLocationUnavailable: {
          summary: 'An unknown shipping location',
          value: {
            error: 'Validation Error',
            message: 'Shipping location loc-9 is not an active location of the organization',
            code: 'SHIPPING_LOCATION_UNAVAILABLE',
            details: [
              {
                code: 'SHIPPING_LOCATION_UNAVAILABLE',
                message: 'Shipping location loc-9 is not an active location of the organization',
                path: ['internal_shipping_location_id'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: profileForbidden,
    404: {
      description: 'No such user of yours (an `internal_user_id` is only looked up among your own).',
      body: { name: 'OrderingProfileNotFoundError', schema: OrderingProfileNotFoundBody },
      examples: {
        profileNotFound: {
          summary: 'Unknown user',
          value: {
            error: 'Not Found',
            message: 'No profile with internal_user_id u-9',
            code: 'PROFILE_NOT_FOUND',
            details: [],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    429: rateLimitedResponse(SANDBOX_ORDER_CREATE_ROUTE_ROW.limitPerMinute),
    500: internalErrorResponse(
      SANDBOX_ORDER_CREATE_ROUTE_ROW,
      "The order may have been placed (or submitted for approval) before the answer was lost: list the organization's orders (or approval requests) before placing it again.",
    ),
    503: {
      description:
        "Stripe Tax could not calculate the order's sales tax: nothing is ordered (no order is placed with a guessed tax). Try again after `Retry-After` seconds.",
      body: { name: 'SalesTaxUnavailableError', schema: SalesTaxUnavailableBody },
      examples: {
        salesTaxUnavailable: {
          summary: 'Stripe Tax did not answer',
          value: {
            error: 'Service Unavailable',
            message: 'Sales tax could not be calculated right now; nothing was ordered. Try again in a minute.',
            code: 'SALES_TAX_UNAVAILABLE',
            details: [],
          },
        },
      },
      headers: { required: [...AUTHENTICATED_HEADERS.required, 'Retry-After'] },
    },
  },
};
