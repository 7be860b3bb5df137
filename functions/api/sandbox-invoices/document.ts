/**
 * The sandbox's invoice actions in the partner API document: what `sandboxInvoiceRoutes`
 * answers and the errors functions/error-outcomes makes for them (docs/billing.md, "Sandbox").
 */
import * as z from 'zod/mini';
import { apiRoute } from '../../routes';
import { INVOICE_ID_PARAMETER, INVOICE_NOT_FOUND_RESPONSE } from '../invoices/document';
import { EXAMPLE_INVOICE_ID } from '../invoices/invoice-examples';
import {
  SandboxInvoiceBadRequestBody,
  SandboxInvoiceConflictBody,
  SandboxInvoiceUnsupportedBody,
} from '../pipeline/error-bodies';
import type { ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  serverErrorResponse,
  unauthorizedResponse,
} from '../openapi/standard-responses';
import { SandboxInvoiceActionRequest } from './request';
import { sandboxInvoiceAccepted } from './routes';

const PAY_ROW = apiRoute('sandbox-invoice-pay');
const OVERDUE_ROW = apiRoute('sandbox-invoice-overdue');
const BEARER = 'Authorization: Bearer <API_KEY>';

const SandboxInvoiceAcceptedBody = z.strictObject({
  invoice_id: z.string(),
  action: z.enum(['pay', 'overdue']),
  message: z.string(),
});

const error = (status: string, code: string, message: string) => ({ error: status, message, code, details: [] });

const badRequest: ResponseDocument = {
  description:
    'The optional body is not an empty JSON object (`VALIDATION_ERROR`: `MALFORMED_JSON`, `INVALID_BODY`, `BODY_TOO_LARGE`, or a field, which the route does not take …), or the `Idempotency-Key` was used before with another body (`IDEMPOTENCY_KEY_REUSED`).',
  body: { name: 'SandboxInvoiceBadRequestError', schema: SandboxInvoiceBadRequestBody },
  examples: {
    malformed: {
      summary: 'Not JSON',
      value: {
        error: 'Validation Error',
        message: 'The request body is not valid JSON',
        code: 'VALIDATION_ERROR',
        details: [{ code: 'MALFORMED_JSON', message: 'The request body is not valid JSON', path: [] }],
      },
    },
  },
  headers: AUTHENTICATED_HEADERS,
};

const conflict: ResponseDocument = {
  description:
    "Nothing changed: the invoice is no longer open (`INVOICE_NOT_OPEN`: paid, void or uncollectible, here or at Stripe, e.g. when a `pay` and an `overdue` race; an overdue invoice is still open), Stripe holds no such invoice (`INVOICE_NOT_AT_STRIPE`: the sandbox's Stripe account lost it, as a reset local stack does), or a request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`).",
  body: { name: 'SandboxInvoiceConflictError', schema: SandboxInvoiceConflictBody },
  examples: {
    notOpen: {
      summary: 'Already paid',
      value: error(
        'Conflict',
        'INVOICE_NOT_OPEN',
        `Invoice ${EXAMPLE_INVOICE_ID} is paid; only an open or overdue invoice can be paid or fall overdue`,
      ),
    },
  },
  headers: AUTHENTICATED_HEADERS,
};

const IDEMPOTENCY =
  'Send an `Idempotency-Key` to make a retry safe: the first answer (202, 409, or a 400 for the body) comes back with `Idempotent-Replayed: true` for 24 hours. Without one, a retry after a lost answer is a 409 `INVOICE_NOT_OPEN` once the first has been paid.';

const action = (
  verb: 'pay' | 'overdue',
  row: typeof PAY_ROW,
  summary: string,
  what: string,
  extra: Record<number, ResponseDocument> = {},
): RouteDocument => ({
  operationId: verb === 'pay' ? 'paySandboxInvoice' : 'markSandboxInvoiceOverdue',
  tag: 'Invoices',
  summary,
  description: [what, '', IDEMPOTENCY].join('\n'),
  idempotencyKey: true,
  parameters: [INVOICE_ID_PARAMETER],
  requestBody: {
    name: 'SandboxInvoiceActionRequest',
    schema: SandboxInvoiceActionRequest,
    example: {},
    required: false,
  },
  responses: {
    202: {
      description:
        "Stripe was asked; the invoice changes when Stripe's event comes back through the service (seconds), and the matching webhook follows.",
      body: { name: 'SandboxInvoiceAccepted', schema: SandboxInvoiceAcceptedBody },
      examples: { accepted: { summary: 'Asked Stripe', value: sandboxInvoiceAccepted(EXAMPLE_INVOICE_ID, verb) } },
      headers: AUTHENTICATED_HEADERS,
    },
    400: badRequest,
    401: unauthorizedResponse(BEARER),
    403: forbiddenResponse(row.scope, 'invoice'),
    404: INVOICE_NOT_FOUND_RESPONSE,
    409: conflict,
    429: rateLimitedResponse(row.limitPerMinute),
    500: serverErrorResponse(
      row,
      'Stripe or our storage failed. Read the invoice before retrying: Stripe may have acted.',
    ),
    ...extra,
  },
});

export const PAY_SANDBOX_INVOICE_ROUTE = action(
  'pay',
  PAY_ROW,
  'Pay an invoice (sandbox)',
  "Has Stripe mark the invoice paid in full (test mode: `paid_out_of_band`), as the buyer's payment would. Stripe sends `invoice.paid` to the service, which sets the invoice's `status` to `paid`, `amount_due` to 0 and `amount_paid` to its total, and sends `invoice.paid` to your endpoint if it subscribes to it. An overdue invoice can be paid too.",
);

export const MARK_SANDBOX_INVOICE_OVERDUE_ROUTE = action(
  'overdue',
  OVERDUE_ROW,
  'Make an invoice overdue (sandbox)',
  "Has the invoice fall due now, as its due date passing would: Stripe sends `invoice.overdue`, the invoice's `status` becomes `overdue`, and `invoice.overdue` goes to your endpoint if it subscribes to it. Stripe's test mode cannot move a finalized invoice's due date, so the hosted sandbox answers 501 (`NOT_SUPPORTED_BY_PROVIDER`); the local stack (`npm start`) does it.",
  {
    501: {
      description:
        "The hosted sandbox's Stripe test mode cannot make an invoice fall due early (`NOT_SUPPORTED_BY_PROVIDER`); nothing changed. Use the local stack, or wait for the due date.",
      body: { name: 'SandboxInvoiceUnsupportedError', schema: SandboxInvoiceUnsupportedBody },
      examples: {
        unsupported: {
          summary: 'Stripe test mode',
          value: error(
            'Not Implemented',
            'NOT_SUPPORTED_BY_PROVIDER',
            'Stripe test mode cannot make an invoice fall due early',
          ),
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
  },
);
