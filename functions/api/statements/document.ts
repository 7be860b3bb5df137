/**
 * The statement route in the partner API document: what one of the partner's organizations
 * owes (`StatementBody`) and the errors `functions/error-outcomes/` makes for it.
 */
import { apiRoute } from '../../routes';
import { OPEN_INVOICE } from '../invoices/invoice-examples';
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
import { INTERNAL_ORG_ID_PARAMETER } from '../organization-users/document';
import { StatementBody } from './response';

const ROW = apiRoute('organization-statement');

const EXAMPLE_STATEMENT: StatementBody = {
  object: 'statement',
  internal_org_id: 'acme-1',
  time_zone: 'America/Los_Angeles',
  as_of: '2027-01-05T17:00:00.000Z',
  total_due: 31.49,
  overdue: { days_1_30: 31.49, days_31_60: 0, days_61_90: 0, over_90: 0 },
  invoices: [{ ...OPEN_INVOICE, status: 'overdue' }],
};

export const GET_STATEMENT_ROUTE: RouteDocument = {
  operationId: 'retrieveStatement',
  tag: 'Invoices',
  summary: 'Retrieve what an organization owes',
  description: [
    'What one of your organizations owes now: its open invoices (status `open` or `overdue`; void and uncollectible ones owe nothing), oldest first, each the object of `GET /v1/invoices/{invoice_id}`, and `total_due`, the sum of their `amount_due`.',
    '',
    "`overdue` splits the part of `total_due` that is past due by how many whole days past its due date each invoice is, counted in calendar days of the organization's time zone (`time_zone`: its `timeZone` from setup, else its default shipping location's state's zone, else UTC): `days_1_30`, `days_31_60`, `days_61_90`, `over_90`. An invoice due today is not overdue; what is not yet due is `total_due` less the four.",
  ].join('\n'),
  parameters: [INTERNAL_ORG_ID_PARAMETER],
  responses: {
    200: {
      description: 'What the organization owes.',
      body: { name: 'Statement', schema: StatementBody },
      examples: {
        owing: { summary: 'One invoice five days overdue', value: EXAMPLE_STATEMENT },
        nothing: {
          summary: 'Nothing owed',
          value: {
            ...EXAMPLE_STATEMENT,
            total_due: 0,
            overdue: { days_1_30: 0, days_31_60: 0, days_61_90: 0, over_90: 0 },
            invoices: [],
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
