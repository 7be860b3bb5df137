/**
 * GET /v1/invoices and GET /v1/invoices/{invoice_id} in the partner API document: the
 * query the handler parses (`InvoiceListQuery`), the bodies it answers with and the
 * errors `functions/error-outcomes/` makes for them.
 */
import * as z from 'zod/mini';
import { DEFAULT_INVOICE_PAGE_SIZE, MAX_INVOICE_PAGE_SIZE } from '../../domain/billing/invoice-repository';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { apiRoute } from '../../routes';
import { InvoiceNotFoundBody, ValidationErrorBody } from '../pipeline/error-bodies';
import type { ParameterDocument, ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  READ_RETRY,
  internalErrorResponse,
  organizationNotFoundResponse,
} from '../openapi/standard-responses';
import { InvoiceListQuery } from './invoice-list-query';
import { EXAMPLE_INVOICE_ID, OPEN_INVOICE } from './invoice-examples';
import { InvoiceBody, InvoiceListBody } from './invoice-response';

/** The invoice's `id`, as the invoice routes (and the sandbox's actions on it) take it. */
export const INVOICE_ID_PARAMETER: ParameterDocument = {
  name: 'invoice_id',
  in: 'path',
  required: true,
  description:
    "The invoice's `id` (`inv_` and its order's id in 32 lower-case hex digits), from `invoice.issued`, `GET /v1/invoices` or an order's `invoice`.",
  schema: documented(z.string(), PATH_PARAMETER_RULES.invoiceId),
};

const GET_ROW = apiRoute('invoice-get');
const LIST_ROW = apiRoute('invoice-list');

const PageSize = z._default(z.int().check(z.gte(1), z.lte(MAX_INVOICE_PAGE_SIZE)), DEFAULT_INVOICE_PAGE_SIZE);

/** The invoice routes' 404: the reads' and the sandbox actions' alike. */
export const INVOICE_NOT_FOUND_RESPONSE: ResponseDocument = {
  description: "No invoice of yours has this id (another partner's invoice, or an id of another form, is none).",
  body: { name: 'InvoiceNotFoundError', schema: InvoiceNotFoundBody },
  examples: {
    invoiceNotFound: {
      summary: 'Unknown invoice',
      value: {
        error: 'Not Found',
        message: `No invoice ${EXAMPLE_INVOICE_ID}`,
        code: 'INVOICE_NOT_FOUND',
        details: [],
      },
    },
  },
  headers: AUTHENTICATED_HEADERS,
};

export const LIST_INVOICES_ROUTE: RouteDocument = {
  operationId: 'listInvoices',
  tag: 'Invoices',
  summary: "List an organization's invoices",
  description: [
    'The invoices of one of your organizations, newest first (issue time, then id), a page at a time, optionally of one `status` or of one order (`order_id`: a page of one invoice, or of none before it is issued).',
    '',
    '`has_more: true` means a next page exists: ask for it with `starting_after` set to the `id` of the last invoice of this page. Unknown query parameters are ignored.',
  ].join('\n'),
  parameters: [
    {
      name: 'internal_org_id',
      in: 'query',
      required: true,
      description: 'Your `internalOrgId` of the organization (as given to setup).',
      schema: InvoiceListQuery.shape.internal_org_id,
    },
    {
      name: 'status',
      in: 'query',
      required: false,
      description: 'Only invoices of this status.',
      schema: InvoiceListQuery.shape.status,
    },
    {
      name: 'order_id',
      in: 'query',
      required: false,
      description: "Only this order's invoice (an order has at most one). Not with `starting_after`.",
      schema: InvoiceListQuery.shape.order_id,
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Invoices per page, a whole number from 1 to ${MAX_INVOICE_PAGE_SIZE} (default ${DEFAULT_INVOICE_PAGE_SIZE}).`,
      schema: PageSize,
    },
    {
      name: 'starting_after',
      in: 'query',
      required: false,
      description:
        'The `id` of the last invoice of the previous page. It must be an invoice of the same organization (else 400 with detail `INVALID_CURSOR`).',
      schema: InvoiceListQuery.shape.starting_after,
    },
  ],
  responses: {
    200: {
      description: 'One page of invoices, newest first.',
      body: { name: 'InvoiceList', schema: InvoiceListBody },
      examples: {
        firstPage: { summary: 'One open invoice', value: { data: [OPEN_INVOICE], has_more: false } },
        empty: { summary: 'No invoice yet', value: { data: [], has_more: false } },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        'The query is invalid: `internal_org_id` missing, `status` not one of the statuses, `order_id` not a UUID, `limit` not a whole number from 1 to 100, `starting_after` not an invoice of this organization (`INVALID_CURSOR`) or given with `order_id`. Every problem is in `details`.',
      body: { name: 'ValidationError', schema: ValidationErrorBody },
      examples: {
        status: {
          summary: 'An unknown status',
          value: {
            error: 'Validation Error',
            message: 'The query is invalid (1 problem; see details)',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_VALUE',
                message: 'must be one of open, paid, overdue, void, uncollectible',
                path: ['status'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(LIST_ROW.scope),
    404: organizationNotFoundResponse('None of your organizations has this `internal_org_id`.'),
    429: rateLimitedResponse(LIST_ROW.limitPerMinute),
    500: internalErrorResponse(LIST_ROW, READ_RETRY),
  },
};

export const GET_INVOICE_ROUTE: RouteDocument = {
  operationId: 'retrieveInvoice',
  tag: 'Invoices',
  summary: 'Retrieve an invoice',
  description:
    'One invoice as it is now: the same object as `invoice` on `GET /v1/orders/{order_id}` and in the `invoice.*` webhooks. Money is in US dollars with at most two decimals; `amount_due` is `total - amount_paid - amount_credited`.',
  parameters: [INVOICE_ID_PARAMETER],
  responses: {
    200: {
      description: 'The invoice.',
      body: { name: 'Invoice', schema: InvoiceBody },
      examples: { open: { summary: 'An open invoice', value: OPEN_INVOICE } },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(GET_ROW.scope),
    404: INVOICE_NOT_FOUND_RESPONSE,
    429: rateLimitedResponse(GET_ROW.limitPerMinute),
    500: internalErrorResponse(GET_ROW, READ_RETRY),
  },
};
