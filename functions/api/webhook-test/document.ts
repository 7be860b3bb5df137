/**
 * POST /v1/webhooks/test in the partner API document: the request schema the handler
 * parses with (`WebhookTestRequest`), the 202 it answers (`WebhookTestResponseBody`)
 * and the error bodies `functions/error-outcomes/` makes for it.
 */
import { WEBHOOK_EVENT_KINDS } from '../../domain/events/order-event-kinds';
import { WebhookTestRequest } from '../../webhooks/webhook-test-request';
import { apiRoute } from '../../routes';
import { WebhookTestBadRequestBody, WebhookTestConflictBody } from '../pipeline/error-bodies';
import type { RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  serverErrorResponse,
} from '../openapi/standard-responses';
import { WebhookTestResponseBody } from './response';

const WEBHOOK_TEST_ROUTE_ROW = apiRoute('webhook-test');
const NOT_A_KIND = `event must be one of ${WEBHOOK_EVENT_KINDS.join(', ')}`;

export const WEBHOOK_TEST_ROUTE: RouteDocument = {
  operationId: 'sendTestWebhook',
  tag: 'Webhooks',
  summary: 'Send yourself a test webhook (sandbox only)',
  description: [
    "Sends a realistic sample event of the kind you name, any kind an endpoint can subscribe to (`order.*`, `approval.*`, `invoice.*`), to your webhook endpoint, through the same pipeline, signatures, retries and delivery log as a real one. Its `data` is valid against the kind's schema and is about one made-up order of seed catalog products for a real-looking address: an order event carries `sequence` and `previous_status` as a real order of that kind would; `approval.requested` is a request above the buyer's order limit and `approval.decided` its approval; an invoice event carries the order's invoice on net 30 as the kind finds it (issued now, paid, overdue a day, or credited one box), with Stripe-shaped links that lead nowhere. `partner_org_id` is your oldest organization's `internalOrgId`, or `test-org` when you have none, and the data says `\"test\": true`. Nothing it names exists: `GET /v1/orders/{order_id}`, `GET /v1/approval-requests/{id}` and `GET /v1/invoices/{invoice_id}` answer 404 for it.",
    '',
    'The answer comes before the delivery: `delivery_id` is the `webhook-id` (and `X-Service-Delivery-ID`) your receiver will get. A paused or disabled endpoint holds the test delivery like any other. Production has no such route (404). Unknown fields are ignored.',
  ].join('\n'),
  requestBody: { name: 'WebhookTestRequest', schema: WebhookTestRequest, example: { event: 'order.shipped' } },
  responses: {
    202: {
      description:
        'The sample event is on its way; `delivery_id` is the id your receiver will get as `webhook-id` and `X-Service-Delivery-ID`.',
      body: { name: 'WebhookTestResponse', schema: WebhookTestResponseBody },
      examples: { accepted: { summary: 'Accepted', value: { delivery_id: '3c8f0b7e-5d2a-8e41-a9c3-6b1f2e7d4a90' } } },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        '`event` is missing or not a kind an endpoint can subscribe to (`VALIDATION_ERROR` on `["event"]`), or the body itself is unusable (`UNSUPPORTED_CONTENT_TYPE`, `BODY_REQUIRED`, `MALFORMED_JSON`, `INVALID_UTF8` (not UTF-8), `INVALID_BODY`, `BODY_TOO_LARGE`, `NESTING_TOO_DEEP`).',
      body: { name: 'WebhookTestBadRequestError', schema: WebhookTestBadRequestBody },
      examples: {
        unknownKind: {
          summary: 'Not an event kind',
          value: {
            error: 'Validation Error',
            message: `The request body is invalid (${NOT_A_KIND})`,
            code: 'VALIDATION_ERROR',
            details: [{ code: 'INVALID_VALUE', message: NOT_A_KIND, path: ['event'] }],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(WEBHOOK_TEST_ROUTE_ROW.scope, 'resource'),
    409: {
      description:
        'Nothing would arrive, so nothing was sent: you have no webhook endpoint (`WEBHOOK_ENDPOINT_NOT_CONFIGURED`; ask the operator to set one up), or your endpoint is not subscribed to this kind (`WEBHOOK_EVENT_NOT_SUBSCRIBED`; the message names the kinds it takes).',
      body: { name: 'WebhookTestConflictError', schema: WebhookTestConflictBody },
      examples: {
        noEndpoint: {
          summary: 'No webhook endpoint',
          value: {
            error: 'Conflict',
            message: 'You have no webhook endpoint; ask the operator to set one up',
            code: 'WEBHOOK_ENDPOINT_NOT_CONFIGURED',
            details: [],
          },
        },
        notSubscribed: {
          summary: 'Kind not subscribed',
          value: {
            error: 'Conflict',
            message:
              'Your webhook endpoint is not subscribed to order.refunded; it receives order.created, order.shipped',
            code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED',
            details: [
              {
                code: 'WEBHOOK_EVENT_NOT_SUBSCRIBED',
                message:
                  'Your webhook endpoint is not subscribed to order.refunded; it receives order.created, order.shipped',
                path: ['event'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    429: rateLimitedResponse(WEBHOOK_TEST_ROUTE_ROW.limitPerMinute),
    500: serverErrorResponse(
      WEBHOOK_TEST_ROUTE_ROW,
      'Something failed on our side (storage, the queue). Retry with exponential backoff; a retry sends another sample with another `delivery_id`.',
    ),
  },
};
