/**
 * GET /v1/orders and GET /v1/orders/{order_id} in the partner API document: the query
 * the handler parses (`OrderListQuery`), the bodies it answers with (`OrderListBody`,
 * `OrderBody`) and the errors `functions/error-outcomes/` makes for them.
 */
import * as z from 'zod/mini';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { DEFAULT_ORDER_PAGE_SIZE, MAX_ORDER_PAGE_SIZE } from '../../domain/orders/order-repository';
import { apiRoute } from '../../routes';
import { ValidationErrorBody } from '../pipeline/error-bodies';
import { orderNotFoundResponse } from './order-api-responses';
import { CONFIRMED_ORDER, EXAMPLE_OTHER_PARTNERS_ORDER_ID, PENDING_ORDER, SHIPPED_ORDER } from './order-examples';
import { OrderListQuery } from './order-list-query';
import { OrderListBody } from './order-response';
import { OrderWithInvoiceBody } from './order-with-invoice';
import { OPEN_INVOICE } from '../invoices/invoice-examples';
import type { ParameterDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  READ_RETRY,
  internalErrorResponse,
  organizationNotFoundResponse,
} from '../openapi/standard-responses';

const ORDER_GET_ROUTE_ROW = apiRoute('order-get');
const ORDER_LIST_ROUTE_ROW = apiRoute('order-list');

/** The order's `id`. Anything but a UUID is a 404 rather than a 400: it names no order. */
export const ORDER_ID_PARAMETER: ParameterDocument = {
  name: 'order_id',
  in: 'path',
  required: true,
  description: "The order's `id` (a UUID, any case), from `order.created` or a list.",
  schema: documented(z.string(), PATH_PARAMETER_RULES.uuid),
};

/**
 * A query parameter is text; the document shows `limit` as the number that text must
 * spell, with the bounds and default the parser and the service share.
 */
const PageSize = z._default(z.int().check(z.gte(1), z.lte(MAX_ORDER_PAGE_SIZE)), DEFAULT_ORDER_PAGE_SIZE);

export const LIST_ORDERS_ROUTE: RouteDocument = {
  operationId: 'listOrders',
  tag: 'Orders',
  summary: "List an organization's orders",
  description: [
    'The orders of one of your organizations, newest first (creation time, then id), a page at a time: to reconcile what a missed webhook would have told you.',
    '',
    '`has_more: true` means a next page exists: ask for it with `starting_after` set to the `id` of the last order of this page. Unknown query parameters are ignored.',
    '',
    "`po_number`, `internal_user_id`, `created_gte` and `created_lt` narrow the list (all given must hold) and page the same way. A page filtered by `po_number` or `internal_user_id` reads at most 1000 of the organization's orders: when it stops there, it may hold fewer orders than `limit` (even none) with `has_more: true`; follow `starting_after` as usual (or narrow the range with `created_gte`/`created_lt`, which costs no extra read).",
  ].join('\n'),
  parameters: [
    {
      name: 'internal_org_id',
      in: 'query',
      required: true,
      description: 'Your `internalOrgId` of the organization (as given to setup).',
      schema: OrderListQuery.shape.internal_org_id,
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Orders per page, a whole number from 1 to ${MAX_ORDER_PAGE_SIZE} (default ${DEFAULT_ORDER_PAGE_SIZE}).`,
      schema: PageSize,
    },
    {
      name: 'starting_after',
      in: 'query',
      required: false,
      description:
        'The `id` (a lower-case UUID) of the last order of the previous page. It must be an order of the same organization (else 400 with detail `INVALID_CURSOR`).',
      schema: OrderListQuery.shape.starting_after,
    },
    {
      name: 'po_number',
      in: 'query',
      required: false,
      description: 'Only orders with exactly this PO number (case-sensitive, as given at checkout).',
      schema: OrderListQuery.shape.po_number,
    },
    {
      name: 'internal_user_id',
      in: 'query',
      required: false,
      description:
        'Only orders of this user: your `internalUserId` (on an approved order, the requester, who placed it).',
      schema: OrderListQuery.shape.internal_user_id,
    },
    {
      name: 'created_gte',
      in: 'query',
      required: false,
      description:
        'Only orders created at or after this instant: an ISO 8601 date-time with `Z` or an offset, e.g. `2026-11-01T00:00:00-05:00`.',
      schema: OrderListQuery.shape.created_gte,
    },
    {
      name: 'created_lt',
      in: 'query',
      required: false,
      description:
        'Only orders created before this instant (same format); it must be after `created_gte` (else 400 with detail `INVALID_RANGE`).',
      schema: OrderListQuery.shape.created_lt,
    },
  ],
  responses: {
    200: {
      description: 'One page of orders, newest first. Each order shows the fields of every status it has reached.',
      body: { name: 'OrderList', schema: OrderListBody },
      examples: {
        firstPage: {
          summary: 'A first page with more to come',
          value: { data: [PENDING_ORDER, SHIPPED_ORDER], has_more: true },
        },
        empty: { summary: 'An organization without orders', value: { data: [], has_more: false } },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        'The query is invalid: `internal_org_id` missing (`REQUIRED`), `limit` not a whole number from 1 to 100, `starting_after` not an order of this organization (`INVALID_CURSOR`), `po_number` or `internal_user_id` blank or too long, `created_gte`/`created_lt` not an ISO 8601 date-time with an offset (`INVALID_FORMAT`), or `created_lt` not after `created_gte` (`INVALID_RANGE`). Every problem is in `details`.',
      body: { name: 'ValidationError', schema: ValidationErrorBody },
      examples: {
        limit: {
          summary: 'limit out of range',
          value: {
            error: 'Validation Error',
            message: 'The query is invalid (1 problem; see details)',
            code: 'VALIDATION_ERROR',
            details: [{ code: 'TOO_BIG', message: 'limit must be at most 100', path: ['limit'] }],
          },
        },
        cursor: {
          summary: 'starting_after of another organization',
          value: {
            error: 'Validation Error',
            message: 'The request is invalid',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_CURSOR',
                message: 'starting_after must be the id of an order of the same organization',
                path: ['starting_after'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(ORDER_LIST_ROUTE_ROW.scope),
    404: organizationNotFoundResponse('None of your organizations has this `internal_org_id`.'),
    429: rateLimitedResponse(ORDER_LIST_ROUTE_ROW.limitPerMinute),
    500: internalErrorResponse(ORDER_LIST_ROUTE_ROW, READ_RETRY),
  },
};

const orderForbidden = forbiddenResponse(ORDER_GET_ROUTE_ROW.scope, 'order');

export const GET_ORDER_ROUTE: RouteDocument = {
  operationId: 'retrieveOrder',
  tag: 'Orders',
  summary: 'Retrieve an order',
  description:
    "One order as it is now: the items, prices and address as they were when it was placed, its status history, and the fields of every status it has reached (`confirmed_at`; `tracking_number`, `carrier`, `tracking_url`, `estimated_delivery`, `shipped_at`; `delivered_at`, `signature`; `cancelled_at`, `cancellation_reason`; `refund_amount`, `refunded_at`, `refund_reason` of the latest refund, `amount_refunded` and `refunds`: a partially refunded order stays `delivered`). Money is in US dollars with at most two decimals, computed in cents: `total` is exactly `subtotal + tax + shipping`. `invoice` is the order's invoice (as `GET /v1/invoices/{invoice_id}` answers it), `null` until the order ships and is invoiced.",
  parameters: [ORDER_ID_PARAMETER],
  responses: {
    200: {
      description: 'The order.',
      body: { name: 'Order', schema: OrderWithInvoiceBody },
      examples: {
        shipped: { summary: 'A shipped order, invoiced', value: { ...SHIPPED_ORDER, invoice: OPEN_INVOICE } },
        confirmed: {
          summary: 'A confirmed order (no invoice before it ships)',
          value: { ...CONFIRMED_ORDER, invoice: null },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: {
      ...orderForbidden,
      examples: {
        ...orderForbidden.examples,
        anotherPartnersOrder: {
          summary: "Another partner's order",
          value: {
            error: 'Forbidden',
            message: `Order ${EXAMPLE_OTHER_PARTNERS_ORDER_ID} belongs to another partner`,
            code: 'FORBIDDEN',
            details: [],
          },
        },
      },
    },
    404: orderNotFoundResponse,
    429: rateLimitedResponse(ORDER_GET_ROUTE_ROW.limitPerMinute),
    500: internalErrorResponse(ORDER_GET_ROUTE_ROW, READ_RETRY),
  },
};
