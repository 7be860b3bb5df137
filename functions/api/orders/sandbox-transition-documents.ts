/**
 * POST /v1/sandbox/orders/{order_id}/{confirm|ship|deliver|cancel|refund} in the partner
 * API document: one route per action, each with the input schema the handler validates
 * with (`SANDBOX_TRANSITION_INPUT`: the operator's fields, with defaults for what a
 * partner's CI leaves out), the body it answers with (`OrderChangeBody`) and the errors
 * `functions/error-outcomes/` makes for it. Sandbox only.
 */
import { ORDER_TRANSITIONS } from '../../domain/orders/order-lifecycle';
import {
  ORDER_ACTIONS,
  type OrderAction,
  SANDBOX_SHIPMENT_DEFAULTS,
  SANDBOX_TRANSITION_INPUT,
} from '../../domain/orders/transition-input';
import { apiRoute } from '../../routes';
import { OrderTransitionConflictBody, ValidationErrorBody } from '../pipeline/error-bodies';
import { orderNotFoundResponse } from './order-api-responses';
import {
  CANCELLED_ORDER,
  CONFIRMED_ORDER,
  DELIVERED_ORDER,
  EXAMPLE_ORDER_ID,
  EXAMPLE_OTHER_PARTNERS_ORDER_ID,
  PARTIALLY_REFUNDED_ORDER,
  REFUNDED_ORDER,
  SHIPPED_ORDER,
} from './order-examples';
import { type OrderBody, OrderChangeBody } from './order-response';
import { ORDER_ID_PARAMETER } from './orders-document';
import type { RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  internalErrorResponse,
} from '../openapi/standard-responses';

// The five actions share one row's scope and window.
const SANDBOX_ORDER_TRANSITION_ROUTE_ROW = apiRoute('sandbox-order-confirm');

interface ActionDocument {
  readonly operationId: string;
  readonly summary: string;
  /** What the change carries and which webhook follows; the route adds the lifecycle rule. */
  readonly description: string;
  readonly requestName: string;
  readonly requestExample: unknown;
  /** Every action but one with a required field may be sent without a body (on sandbox, all of them). */
  readonly bodyOptional: boolean;
  readonly result: OrderBody;
  /** More 200 examples (the refund's full one). */
  readonly otherResults?: Readonly<Record<string, { readonly summary: string; readonly value: OrderBody }>>;
  /** A change this action's `from` statuses do not allow, for the 409 example. */
  readonly refusedFrom: OrderBody['status'];
}

const ACTIONS: Readonly<Record<OrderAction, ActionDocument>> = {
  confirm: {
    operationId: 'confirmSandboxOrder',
    summary: 'Confirm an order (sandbox)',
    description: 'Confirms the order as the supplier would; `order.confirmed` follows. No body.',
    requestName: 'ConfirmOrderRequest',
    requestExample: {},
    bodyOptional: true,
    result: CONFIRMED_ORDER,
    refusedFrom: 'shipped',
  },
  ship: {
    operationId: 'shipSandboxOrder',
    summary: 'Ship an order (sandbox)',
    description: `Ships the order with its tracking; \`order.shipped\` follows. Every field is optional on sandbox, and what is left out is made up: \`carrier\` \`${SANDBOX_SHIPMENT_DEFAULTS.carrier}\`, \`tracking_number\` \`1Z\` and the order id's first 16 hexadecimal digits in upper case, \`tracking_url\` \`https://track.example.com/<tracking_number>\`, \`estimated_delivery\` 17:00 UTC three days from now. Given fields must be valid: \`tracking_number\` and \`carrier\` up to 64 characters, \`tracking_url\` https, \`estimated_delivery\` ISO 8601 with an offset. (Operators shipping a production order give all four.)`,
    requestName: 'ShipOrderRequest',
    requestExample: {
      tracking_number: '1Z999AA10123456784',
      carrier: 'UPS',
      tracking_url: 'https://track.example.com/1Z999AA10123456784',
      estimated_delivery: '2036-01-05T17:00:00Z',
    },
    bodyOptional: true,
    result: SHIPPED_ORDER,
    refusedFrom: 'pending',
  },
  deliver: {
    operationId: 'deliverSandboxOrder',
    summary: 'Deliver an order (sandbox)',
    description: `Marks the order delivered with the name of who signed for it (\`signature\`; optional on sandbox, \`${SANDBOX_SHIPMENT_DEFAULTS.signature}\` when left out); \`order.delivered\` follows.`,
    requestName: 'DeliverOrderRequest',
    requestExample: { signature: 'R. Front Desk' },
    bodyOptional: true,
    result: DELIVERED_ORDER,
    refusedFrom: 'confirmed',
  },
  cancel: {
    operationId: 'cancelSandboxOrder',
    summary: 'Cancel an order (sandbox)',
    description: 'Cancels the order, with an optional `reason`; `order.cancelled` follows.',
    requestName: 'CancelOrderRequest',
    requestExample: { reason: 'ordered twice' },
    bodyOptional: true,
    result: CANCELLED_ORDER,
    refusedFrom: 'shipped',
  },
  refund: {
    operationId: 'refundSandboxOrder',
    summary: 'Refund an order (sandbox)',
    description:
      "Refunds a delivered order, in one go or in parts: `amount` in US dollars (more than 0, at most two decimals, at most what is left to refund, the `total` less `amount_refunded`; absent, all that is left) and an optional `reason`; each refund sends its own `order.refunded` (with `refund_amount` and the running `amount_refunded`). A partial refund leaves the order `delivered`, with `amount_refunded`, `refunds` and the latest refund's `refund_amount`, `refunded_at` and `refund_reason`; the refund that brings `amount_refunded` to the `total` makes it `refunded`. A refund larger than what is left is 400 `VALIDATION_ERROR` (`TOO_BIG` on `amount`). Unlike the other actions, a refund retried after a lost answer refunds again: read the order first.",
    requestName: 'RefundOrderRequest',
    requestExample: { amount: 12.49, reason: 'one box damaged' },
    bodyOptional: true,
    result: PARTIALLY_REFUNDED_ORDER,
    otherResults: { refundedInFull: { summary: 'The rest refunded: the order, refunded', value: REFUNDED_ORDER } },
    refusedFrom: 'shipped',
  },
};

const forbidden = forbiddenResponse(SANDBOX_ORDER_TRANSITION_ROUTE_ROW.scope, 'order');

function transitionRoute(action: OrderAction): RouteDocument {
  const document = ACTIONS[action];
  const { from, to } = ORDER_TRANSITIONS[action];
  const fromText = from.map((status) => `\`${status}\``).join(' or ');
  return {
    operationId: document.operationId,
    tag: 'Sandbox orders',
    summary: document.summary,
    description: [
      `${document.description} Allowed from ${fromText} (the order becomes \`${to}\`); any other status is 409 \`INVALID_ORDER_TRANSITION\`. Unknown fields are ignored.`,
      '',
      `A 500 may come after the change was committed (its answer was lost): retry, and a 409 \`INVALID_ORDER_TRANSITION\` whose \`data.status\` is \`${to}\` means it was done.`,
    ].join('\n'),
    parameters: [ORDER_ID_PARAMETER],
    requestBody: {
      name: document.requestName,
      schema: SANDBOX_TRANSITION_INPUT[action],
      example: document.requestExample,
      required: !document.bodyOptional,
    },
    responses: {
      200: {
        description:
          action === 'refund'
            ? 'Done: the order, `refunded` once everything is refunded, else still `delivered` with its `amount_refunded`.'
            : `Done: the order, now \`${to}\`.`,
        body: { name: 'OrderChange', schema: OrderChangeBody },
        examples: {
          changed: {
            summary: `The order, ${document.result.status}`,
            value: { success: true, order: document.result },
          },
          ...Object.fromEntries(
            Object.entries(document.otherResults ?? {}).map(([name, { summary, value }]) => [
              name,
              { summary, value: { success: true, order: value } },
            ]),
          ),
        },
        headers: AUTHENTICATED_HEADERS,
      },
      400: {
        description:
          'The body is invalid (`VALIDATION_ERROR`, every problem in `details`; malformed JSON and the other body checks included), or a refund is larger than what is left to refund.',
        body: { name: 'ValidationError', schema: ValidationErrorBody },
        examples: {
          validation: {
            summary: 'Field rules',
            value: {
              error: 'Validation Error',
              message: 'tracking_url must be an https URL',
              code: 'VALIDATION_ERROR',
              details: [
                { code: 'INVALID_FORMAT', message: 'tracking_url must be an https URL', path: ['tracking_url'] },
              ],
            },
          },
        },
        headers: AUTHENTICATED_HEADERS,
      },
      401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
      403: {
        ...forbidden,
        examples: {
          ...forbidden.examples,
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
      409: {
        description:
          "The order's status does not allow this change (`INVALID_ORDER_TRANSITION`; `data` has the order's `status` and the `requested_status`), or the order kept changing under the request (`CONCURRENT_MODIFICATION`: read it and retry).",
        body: { name: 'OrderTransitionConflictError', schema: OrderTransitionConflictBody },
        examples: {
          invalidTransition: {
            summary: `A ${document.refusedFrom} order`,
            value: {
              error: 'Conflict',
              message: `Order ${EXAMPLE_ORDER_ID} is ${document.refusedFrom}; it cannot become ${to}`,
              code: 'INVALID_ORDER_TRANSITION',
              details: [
                {
                  code: 'INVALID_ORDER_TRANSITION',
                  message: `Order ${EXAMPLE_ORDER_ID} is ${document.refusedFrom}; it cannot become ${to}`,
                  path: ['status'],
                },
              ],
              data: { order_id: EXAMPLE_ORDER_ID, status: document.refusedFrom, requested_status: to },
            },
          },
          concurrentModification: {
            summary: 'The order kept changing',
            value: {
              error: 'Conflict',
              message: 'The order changed while this request was applied; read it and retry',
              code: 'CONCURRENT_MODIFICATION',
              details: [],
            },
          },
        },
        headers: AUTHENTICATED_HEADERS,
      },
      429: rateLimitedResponse(SANDBOX_ORDER_TRANSITION_ROUTE_ROW.limitPerMinute),
      500: internalErrorResponse(
        SANDBOX_ORDER_TRANSITION_ROUTE_ROW,
        `The change may have been committed before the answer was lost: retrying is safe (see above).`,
      ),
    },
  };
}

/** Each action's route document, by action. */
export const SANDBOX_ORDER_TRANSITION_DOCUMENTS = Object.fromEntries(
  ORDER_ACTIONS.map((action) => [action, transitionRoute(action)]),
) as Readonly<Record<OrderAction, RouteDocument>>;
