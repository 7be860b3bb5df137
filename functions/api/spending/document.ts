/**
 * The spend report route in the partner API document: the month's placed totals of one of
 * the partner's organizations, the body the handler answers with (`SpendReportBody`) and
 * the errors `functions/error-outcomes/` makes for it.
 */
import * as z from 'zod/mini';
import { apiRoute } from '../../routes';
import type { RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  READ_RETRY,
  internalErrorResponse,
  organizationNotFoundResponse,
} from '../openapi/standard-responses';
import { ValidationErrorBody } from '../pipeline/error-bodies';
import { INTERNAL_ORG_ID_PARAMETER } from '../organization-users/document';
import { SERVED_MONTH_PATTERN } from '../../domain/spending/spend-report';
import { SpendReportBody } from './response';

const ROW = apiRoute('organization-spend');

const EXAMPLE_REPORT: SpendReportBody = {
  object: 'spend_report',
  internal_org_id: 'acme-1',
  month: '2026-11',
  time_zone: 'America/Los_Angeles',
  order_count: 3,
  total: 412.35,
  complete: true,
  users: [
    {
      internal_user_id: 'dr-lee',
      name: 'Ana Lee',
      total: 300.1,
      order_limit: null,
      monthly_limit: null,
      remaining: null,
    },
    {
      internal_user_id: 'front-desk-2',
      name: 'Sam Ortiz',
      total: 112.25,
      order_limit: 250,
      monthly_limit: 500,
      remaining: 387.75,
    },
  ],
  locations: [
    { internal_shipping_location_id: 'main-st', name: 'Main Street', total: 300.1 },
    { internal_shipping_location_id: 'north', name: 'North Clinic', total: 112.25 },
  ],
  categories: [
    { category: 'Impression Materials', total: 240 },
    { category: 'Infection Control', total: 150.5 },
  ],
};

export const GET_SPEND_REPORT_ROUTE: RouteDocument = {
  operationId: 'retrieveSpendReport',
  tag: 'Orders',
  summary: "Retrieve an organization's spend report",
  description: [
    "What one of your organizations spent in a calendar month of its time zone (its `timeZone` from setup, named as you gave it; else its default shipping location's state's zone; else UTC): the same totals an approver sees on the module's Spending page, its chart and its CSV.",
    '',
    "An order counts in the month it was created at its total (tax and shipping included), unless cancelled, net of its refunds: a cancellation or refund gives its amount back to that month in the same transaction, so `remaining` agrees with checkout. `users` lists every user of the organization (with `0` if they spent nothing), with their limits and, for the current month, what the monthly limit leaves; for a past month, `monthly_limit` is the one recorded with the user's last order of that month (`null` if they ordered nothing then). `categories` count the goods (each line's price times quantity); tax, shipping and refunds are in the user and location totals only. `complete: false` means the month held more than 5000 orders and only the first 5000 were counted. Unknown query parameters are ignored.",
  ].join('\n'),
  parameters: [
    INTERNAL_ORG_ID_PARAMETER,
    {
      name: 'month',
      in: 'query',
      required: false,
      description:
        "The month as `YYYY-MM`, from `2000-01` to `2199-12` (absent: the current month in the organization's time zone).",
      schema: z.string().check(z.regex(SERVED_MONTH_PATTERN)),
    },
  ],
  responses: {
    200: {
      description: "The month's totals.",
      body: { name: 'SpendReport', schema: SpendReportBody },
      examples: { month: { summary: 'A month of two users at two locations', value: EXAMPLE_REPORT } },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description: '`month` is not a month written `YYYY-MM` from `2000-01` to `2199-12` (`INVALID_MONTH`).',
      body: { name: 'ValidationError', schema: ValidationErrorBody },
      examples: {
        month: {
          summary: 'A malformed month, or one outside 2000-01 to 2199-12',
          value: {
            error: 'Validation Error',
            message: 'The request is invalid',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_MONTH',
                message: 'month must be YYYY-MM from 2000-01 to 2199-12, e.g. 2026-11',
                path: ['month'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(ROW.scope),
    404: organizationNotFoundResponse(
      "None of your organizations has this `internalOrgId` (another partner's organization is not yours, so it is not found either).",
    ),
    429: rateLimitedResponse(ROW.limitPerMinute),
    500: internalErrorResponse(ROW, READ_RETRY),
  },
};
