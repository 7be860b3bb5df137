/**
 * The partner's deliveries and endpoint in the partner API document: the query the
 * handler parses (`DeliveryListQuery`), the bodies it answers with and the errors
 * `functions/error-outcomes/` makes for them (docs/webhooks.md, "Inspecting and
 * retrying deliveries").
 */
import * as z from 'zod/mini';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { type ApiRoute, apiRoute } from '../../routes';
import { DEFAULT_DELIVERY_PAGE_SIZE, MAX_DELIVERY_PAGE_SIZE } from '../../webhooks/partner-webhooks';
import {
  DeliveryNotFoundBody,
  DeliveryRetryConflictBody,
  ValidationErrorBody,
  WebhookEndpointNotFoundBody,
} from '../pipeline/error-bodies';
import type { ParameterDocument, ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  READ_RETRY,
  internalErrorResponse,
} from '../openapi/standard-responses';
import { DeliveryListQuery } from './delivery-list-query';
import {
  ACTIVE_ENDPOINT,
  CIRCUIT_OPEN_ENDPOINT,
  DELIVERED_DELIVERY,
  DELIVERED_SUMMARY,
  DISABLED_ENDPOINT,
  EXAMPLE_DELIVERY_ID,
  PENDING_DELIVERY,
  RETRIED_DELIVERY,
} from './examples';
import { DeliveryBody, DeliveryListBody, WebhookEndpointBody } from './response';

const LIST_ROW = apiRoute('webhook-delivery-list');
const GET_ROW = apiRoute('webhook-delivery-get');
const RETRY_ROW = apiRoute('webhook-delivery-retry');
const ENDPOINT_ROW = apiRoute('webhook-endpoint-get');

const BEARER = 'Authorization: Bearer <API_KEY>';

const internalError = (route: ApiRoute, retry: string): ResponseDocument =>
  internalErrorResponse(route, retry, 'storage, the queue');

/** The delivery's id: the `webhook-id` (and `X-Service-Delivery-ID`) your receiver got. Anything but a UUID names none (404). */
const DELIVERY_ID_PARAMETER: ParameterDocument = {
  name: 'delivery_id',
  in: 'path',
  required: true,
  description:
    "The delivery's `id` (a UUID, any case): the `webhook-id` and `X-Service-Delivery-ID` headers your receiver got, or an `id` from the list.",
  schema: documented(z.string(), PATH_PARAMETER_RULES.uuid),
};

const deliveryNotFound: ResponseDocument = {
  description:
    "None of your deliveries has this id: unknown, older than 30 days, not a UUID, or another partner's (which is not told apart from none).",
  body: { name: 'DeliveryNotFoundError', schema: DeliveryNotFoundBody },
  examples: {
    deliveryNotFound: {
      summary: 'Unknown delivery',
      value: {
        error: 'Not Found',
        message: `No delivery ${EXAMPLE_DELIVERY_ID}`,
        code: 'DELIVERY_NOT_FOUND',
        details: [],
      },
    },
  },
  headers: AUTHENTICATED_HEADERS,
};

/** A query parameter is text; the document shows `limit` as the number that text must spell. */
const PageSize = z._default(z.int().check(z.gte(1), z.lte(MAX_DELIVERY_PAGE_SIZE)), DEFAULT_DELIVERY_PAGE_SIZE);

export const LIST_DELIVERIES_ROUTE: RouteDocument = {
  operationId: 'listWebhookDeliveries',
  tag: 'Webhooks',
  summary: 'List your webhook deliveries',
  description: [
    'Your webhook deliveries of the last 30 days, newest first (creation time, then id), a page at a time, each with its last attempt: to see what was sent, what your endpoint answered and what is still pending. `GET /v1/webhooks/deliveries/{delivery_id}` adds every attempt and the exact body.',
    '',
    'Filters narrow the list and combine: `status`, `event`, `order_id`, `since`. `has_more: true` means a next page exists: ask for it with the same filters and `starting_after` set to the `id` of the last delivery of this page. Unknown query parameters are ignored.',
    '',
    'Keys issued before this route existed lack `webhooks:read` (403); ask the operator for a new key.',
  ].join('\n'),
  parameters: [
    {
      name: 'status',
      in: 'query',
      required: false,
      description:
        '`pending` (an attempt queued, waiting for its time, or held while your endpoint is paused or disabled), `delivered` (your endpoint answered 2xx), `failed` (every attempt of the schedule failed, or your endpoint answered 410), or `cancelled` (your endpoint was removed while it was pending).',
      schema: DeliveryListQuery.shape.status,
    },
    {
      name: 'event',
      in: 'query',
      required: false,
      description: 'Only deliveries of this event kind.',
      schema: DeliveryListQuery.shape.event,
    },
    {
      name: 'order_id',
      in: 'query',
      required: false,
      description: 'Only deliveries of events about this order (its `order_id`, any case).',
      schema: DeliveryListQuery.shape.order_id,
    },
    {
      name: 'since',
      in: 'query',
      required: false,
      description:
        'Only deliveries created at or after this time (ISO 8601 with `Z` or an offset, e.g. `2030-03-14T00:00:00Z`).',
      schema: DeliveryListQuery.shape.since,
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Deliveries per page, a whole number from 1 to ${MAX_DELIVERY_PAGE_SIZE} (default ${DEFAULT_DELIVERY_PAGE_SIZE}).`,
      schema: PageSize,
    },
    {
      name: 'starting_after',
      in: 'query',
      required: false,
      description:
        'The `id` (a lower-case UUID) of the last delivery of the previous page. It must be one of your deliveries, and of the same order when `order_id` is given (else 400 with detail `INVALID_CURSOR`).',
      schema: DeliveryListQuery.shape.starting_after,
    },
  ],
  responses: {
    200: {
      description:
        'One page of deliveries, newest first, without bodies. `next_attempt_at` and `held_since` appear on pending deliveries only; `last_attempt` once there was one.',
      body: { name: 'WebhookDeliveryList', schema: DeliveryListBody },
      examples: {
        firstPage: {
          summary: 'A first page with more to come',
          value: { data: [PENDING_DELIVERY, DELIVERED_SUMMARY], has_more: true },
        },
        empty: { summary: 'Nothing matches', value: { data: [], has_more: false } },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        'The query is invalid: `status` or `event` not one of their values, `since` not an ISO 8601 time with an offset, `limit` not a whole number from 1 to 100, or `starting_after` not one of your deliveries in this list (`INVALID_CURSOR`). Every problem is in `details`.',
      body: { name: 'ValidationError', schema: ValidationErrorBody },
      examples: {
        status: {
          summary: 'Unknown status',
          value: {
            error: 'Validation Error',
            message: 'The query is invalid (1 problem; see details)',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_VALUE',
                message: 'status must be one of pending, delivered, failed, cancelled',
                path: ['status'],
              },
            ],
          },
        },
        cursor: {
          summary: 'starting_after of another list',
          value: {
            error: 'Validation Error',
            message: 'The request is invalid',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_CURSOR',
                message: 'starting_after must be the id of one of your deliveries in this list',
                path: ['starting_after'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse(BEARER),
    403: forbiddenResponse(LIST_ROW.scope),
    429: rateLimitedResponse(LIST_ROW.limitPerMinute),
    500: internalError(LIST_ROW, READ_RETRY),
  },
};

export const GET_DELIVERY_ROUTE: RouteDocument = {
  operationId: 'retrieveWebhookDelivery',
  tag: 'Webhooks',
  summary: 'Retrieve a webhook delivery',
  description: [
    'One delivery as it is now: its event kind and order, its status, every attempt (when, your status code or why there was none, how long it took) and the exact body every attempt sent, byte for byte: recompute a signature over it with your secret to debug verification.',
    '',
    "Never the signing secret or the signatures. Another partner's delivery is a 404, as an unknown one.",
  ].join('\n'),
  parameters: [DELIVERY_ID_PARAMETER],
  responses: {
    200: {
      description: 'The delivery with its attempts, oldest first, and its body.',
      body: { name: 'WebhookDelivery', schema: DeliveryBody },
      examples: { delivered: { summary: 'Delivered on the first retry', value: DELIVERED_DELIVERY } },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse(BEARER),
    403: forbiddenResponse(GET_ROW.scope),
    404: deliveryNotFound,
    429: rateLimitedResponse(GET_ROW.limitPerMinute),
    500: internalError(GET_ROW, READ_RETRY),
  },
};

export const RETRY_DELIVERY_ROUTE: RouteDocument = {
  operationId: 'retryWebhookDelivery',
  tag: 'Webhooks',
  summary: 'Retry a webhook delivery now',
  description: [
    'Sends a delivered, failed or cancelled delivery again: a new round of attempts whose first goes out now, with the same delivery id (`webhook-id`, `X-Service-Delivery-ID`) and the same body, signed afresh with your current secrets; if it fails, the usual schedule (1m, 5m, 15m, 1h, 6h, 24h) follows. De-duplicate on the delivery id as always.',
    '',
    'A pending delivery waiting for its next attempt (a failed attempt, `next_attempt_at` later) gets that attempt now, in the same round: its schedule is kept, so if it fails the next step of the schedule follows. A delivery with an attempt in flight (queued or due now, or held while your endpoint is paused or disabled) is refused (409 `DELIVERY_IN_FLIGHT`); a held delivery goes out when the operator resumes or enables the endpoint. A retry that failed (500) before its attempt was queued leaves the delivery pending; retrying it again 30 s later queues that attempt. Nothing is read from a request body.',
  ].join('\n'),
  parameters: [DELIVERY_ID_PARAMETER],
  responses: {
    202: {
      description:
        'The retry is queued: the delivery is `pending`, due now (on its next `round`, or in the same round when it was waiting for its next attempt), with the attempts so far.',
      body: { name: 'WebhookDelivery', schema: DeliveryBody },
      examples: { retried: { summary: 'Queued for now', value: RETRIED_DELIVERY } },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse(BEARER),
    403: forbiddenResponse(RETRY_ROW.scope),
    404: deliveryNotFound,
    409: {
      description:
        'Nothing was queued: an attempt of the delivery is in flight (`DELIVERY_IN_FLIGHT`: wait for its outcome), or you have no webhook endpoint to send it to (`WEBHOOK_ENDPOINT_NOT_CONFIGURED`).',
      body: { name: 'WebhookDeliveryRetryConflictError', schema: DeliveryRetryConflictBody },
      examples: {
        inFlight: {
          summary: 'Still pending',
          value: {
            error: 'Conflict',
            message: `Delivery ${EXAMPLE_DELIVERY_ID} is still pending (an attempt is queued or held); retry it once it is delivered or failed`,
            code: 'DELIVERY_IN_FLIGHT',
            details: [],
          },
        },
        noEndpoint: {
          summary: 'No webhook endpoint',
          value: {
            error: 'Conflict',
            message: 'You have no webhook endpoint; ask the operator to set one up',
            code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
            details: [],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    429: rateLimitedResponse(RETRY_ROW.limitPerMinute),
    500: internalError(RETRY_ROW, 'Read the delivery before retrying: the retry may have been queued.'),
  },
};

export const GET_WEBHOOK_ENDPOINT_ROUTE: RouteDocument = {
  operationId: 'retrieveWebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Retrieve your webhook endpoint',
  description: [
    "Where your webhooks go and whether they are going: the URL, the subscribed event kinds and the status. `active` sends; `paused` (by the operator) and `disabled` (after a 410 Gone or 5 days of failures) hold new deliveries until the operator resumes or enables it, with `status_reason`; `circuit_open`: the endpoint is active, but after consecutive failures sending is stopped for a while and tried again later (`circuit` gives the breaker's state and since when, when the service records one).",
    '',
    'Never the signing secret: `secret_rotated_at` says when the current one was set. The operator configures the endpoint; no route changes it.',
  ].join('\n'),
  responses: {
    200: {
      description: 'The endpoint.',
      body: { name: 'WebhookEndpoint', schema: WebhookEndpointBody },
      examples: {
        active: { summary: 'Sending', value: ACTIVE_ENDPOINT },
        disabled: { summary: 'Disabled after 410 Gone', value: DISABLED_ENDPOINT },
        circuitOpen: { summary: 'Circuit open after failures', value: CIRCUIT_OPEN_ENDPOINT },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse(BEARER),
    403: forbiddenResponse(ENDPOINT_ROW.scope),
    404: {
      description: 'You have no webhook endpoint; ask the operator to set one up.',
      body: { name: 'WebhookEndpointNotConfiguredError', schema: WebhookEndpointNotFoundBody },
      examples: {
        noEndpoint: {
          summary: 'No webhook endpoint',
          value: {
            error: 'Not Found',
            message: 'You have no webhook endpoint; ask the operator to set one up',
            code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
            details: [],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    429: rateLimitedResponse(ENDPOINT_ROW.limitPerMinute),
    500: internalError(ENDPOINT_ROW, READ_RETRY),
  },
};
