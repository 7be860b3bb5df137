/**
 * Stripe's route in the API document: not a partner route (no key; Stripe signs the body),
 * documented so its answers are held to a schema like every route's.
 */
import * as z from 'zod/mini';
import { LATEST_STRIPE_EVENT_CREATED } from '../../domain/billing/stripe-events';
import { signedRoute } from '../../routes';
import { InvoiceNotRecordedYetBody, StripeEventRefusedBody } from '../pipeline/error-bodies';
import type { ResponseHeaders, RouteDocument } from '../openapi/route-document';
import { serverErrorResponse } from '../openapi/standard-responses';

const ROW = signedRoute('stripe-events');
const REQUEST_ID: ResponseHeaders = { required: ['Request-Id'] };

const StripeEventReceived = z.strictObject({
  received: z.literal(true),
  outcome: z.enum(['applied', 'duplicate', 'unchanged', 'ignored']),
});

/** The fields of a Stripe event the service reads; Stripe sends many more, which are kept as they are. */
const StripeEventRequest = z.looseObject({
  id: z.string(),
  object: z.literal('event'),
  type: z.string(),
  // Stripe's epoch seconds; later than 9999 has no ISO 8601 time to log or announce (400, as a body that is no event).
  created: z.int().check(z.minimum(0), z.maximum(LATEST_STRIPE_EVENT_CREATED)),
  data: z.looseObject({ object: z.looseObject({}) }),
});

export const STRIPE_EVENTS_ROUTE: RouteDocument = {
  operationId: 'receiveStripeEvent',
  tag: 'Stripe',
  summary: "Stripe's invoice events (Stripe only, not for partners)",
  description: [
    "The stack's Stripe webhook endpoint: Stripe posts its invoice events here, signed with the stack's endpoint secret. Partners never call it; their invoices change through it, and they hear of it through `invoice.paid` and `invoice.overdue`.",
    '',
    "`invoice.paid`, `invoice.payment_failed`, `invoice.overdue`, `invoice.voided` and `invoice.marked_uncollectible` update the order's invoice: the event only says that the invoice changed, so the service reads the invoice from Stripe (Stripe's advice; the order events arrive in does not matter) and stores Stripe's status, amounts and due date once they pass the invoice record's checks (whole, non-negative cents adding up to the invoice's total) and Stripe's own transitions (an uncollectible invoice can still be paid or voided; paid and void are final). Each event id changes it at most once, and an event older than the last change (an event applied, or a credit note) changes nothing. Any other kind, an order id that is not one of the service's, or a state it cannot apply is answered 200 `ignored`, logged with its reason and never stored.",
  ].join('\n'),
  requestBody: {
    name: 'StripeEvent',
    schema: StripeEventRequest,
    example: { id: 'evt_1', object: 'event', type: 'invoice.paid', created: 2_080_000_000, data: { object: {} } },
  },
  responses: {
    200: {
      description:
        "Verified and handled: `applied` (the invoice changed), `duplicate` (this event id was processed before), `unchanged` (older than the invoice's state), `ignored` (a kind, order or invoice the service does not follow, or a state it cannot apply; logged with its reason, nothing stored). Stripe stops sending it.",
      body: { name: 'StripeEventReceived', schema: StripeEventReceived },
      examples: { applied: { summary: 'Applied', value: { received: true, outcome: 'applied' } } },
      headers: REQUEST_ID,
    },
    400: {
      description:
        'Not verified, nothing changed: no `Stripe-Signature`, a signature that does not match the body and the endpoint secret, a signature dated more than 5 minutes in the past or the future, an empty, malformed or oversized (over 256 KiB) body, or one that is not a Stripe event (`created` not whole seconds from 1970 to 9999). Logged without the body.',
      body: { name: 'StripeEventRefusedError', schema: StripeEventRefusedBody },
      examples: {
        forged: {
          summary: 'Signature does not match',
          value: {
            error: 'Validation Error',
            message: 'The Stripe event could not be verified',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_STRIPE_EVENT',
                message: 'The signature does not match the body',
                path: ['Stripe-Signature'],
              },
            ],
          },
        },
      },
      headers: REQUEST_ID,
    },
    500: serverErrorResponse(ROW, 'Something failed on our side; Stripe retries the event.'),
    503: {
      description:
        'The event is about an invoice Stripe finalized that the service has not recorded yet (its invoicing is between steps): `Retry-After` seconds; Stripe retries, and the record is there by then.',
      body: { name: 'InvoiceNotRecordedYetError', schema: InvoiceNotRecordedYetBody },
      examples: {
        notRecorded: {
          summary: 'Invoice not recorded yet',
          value: {
            error: 'Service Unavailable',
            message: 'Order 9b2f4c1e-8d3a-4f6b-a1c2-3d4e5f6a7b8c has no invoice yet',
            code: 'INVOICE_NOT_RECORDED_YET',
            details: [],
          },
        },
      },
      headers: { required: ['Request-Id', 'Retry-After'] },
    },
  },
};
