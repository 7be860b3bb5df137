/**
 * GET and PATCH /v1/organizations/{internalOrgId} in the partner API document: the request
 * schema the handler parses with (`OrganizationUpdateRequest`), the response it answers
 * with and the error bodies `functions/error-outcomes/` makes for them.
 */
import { OrganizationUpdateRequest } from '../../domain/organizations/change-requests';
import { type ApiRoute, apiRoute } from '../../routes';
import { INTERNAL_ORG_ID_PARAMETER } from '../organization-users/document';
import {
  OrganizationChangeBadRequestBody,
  OrganizationNotFoundBody,
  StripeUnavailableBody,
} from '../pipeline/error-bodies';
import type { ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  serverErrorResponse,
  unauthorizedResponse,
  REPLAYABLE_HEADERS,
  idempotencyKeyInUseResponse,
  ORGANIZATION_NOT_FOUND_EXAMPLE,
} from '../openapi/standard-responses';
import { OrganizationResponseBody } from './response';

const GET_ROW = apiRoute('organization-get');
const UPDATE_ROW = apiRoute('organization-update');

const REPLAYABLE = REPLAYABLE_HEADERS;

const ORGANIZATION = {
  id: '4f84fe3d-34b3-4b20-825a-e2c33467164c',
  name: 'Acme Orthodontics',
  internalOrgId: 'acme-2',
  paymentCustomerId: 'cus_OGabNnGKCO9r5Q',
  paymentTerms: 'net30',
  billingEmail: 'billing@acme.test',
  organizationEmail: 'office@acme.test',
  organizationPhone: '+1 512 555 0100',
  billingAddress: {
    line1: '500 Congress Ave',
    city: 'Austin',
    province: 'Texas',
    postalCode: '78701',
    country: 'United States',
  },
  timeZone: 'America/Chicago',
  taxExempt: false,
  createdAt: '2026-11-22T15:00:45.080Z',
};

const notFound: ResponseDocument = {
  description:
    "None of your organizations has this `internalOrgId` (`ORGANIZATION_NOT_FOUND`; another partner's organization is not yours, so it is not found either).",
  body: { name: 'OrganizationNotFoundError', schema: OrganizationNotFoundBody },
  examples: {
    organizationNotFound: ORGANIZATION_NOT_FOUND_EXAMPLE,
  },
  headers: AUTHENTICATED_HEADERS,
};

const internalError = (route: ApiRoute): ResponseDocument =>
  serverErrorResponse(
    route,
    'Something failed on our side (storage). Nothing was changed; retry with exponential backoff, a PATCH is safe to repeat.',
  );

export const GET_ORGANIZATION_ROUTE: RouteDocument = {
  operationId: 'retrieveOrganization',
  tag: 'Provisioning',
  summary: 'Retrieve an organization',
  description:
    'The organization with its billing settings: `paymentTerms` (how long it has to pay an invoice), `billingEmail` (where invoices go: the billing e-mail set, else `organizationEmail`), `taxExempt` (its orders and invoices carry no sales tax; the Stripe customer `tax_exempt`), and its contact fields (`null` when not set).',
  parameters: [INTERNAL_ORG_ID_PARAMETER],
  responses: {
    200: {
      description: 'The organization.',
      body: { name: 'OrganizationResponse', schema: OrganizationResponseBody },
      examples: {
        organization: {
          summary: 'An organization on Net 30',
          value: { success: true, data: { organization: ORGANIZATION } },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(GET_ROW.scope),
    404: notFound,
    429: rateLimitedResponse(GET_ROW.limitPerMinute),
    500: internalError(GET_ROW),
  },
};

export const UPDATE_ORGANIZATION_ROUTE: RouteDocument = {
  operationId: 'updateOrganization',
  tag: 'Provisioning',
  summary: 'Change an organization',
  description: [
    "Changes only the fields you send: `organizationName`, `organizationEmail`, `organizationPhone`, `billingAddress`, `billingEmail`, `paymentTerms` (`net15`, `net30`, `net60`), `timeZone` and `taxExempt` (a boolean; the Stripe customer's `tax_exempt` follows, and checkouts from then on are taxed accordingly), by setup's rules (trimmed, the same limits; a blank optional string changes nothing, `null` removes an optional field: `billingEmail: null` sends invoices to `organizationEmail` again).",
    '',
    "The organization's payment-provider customer gets the new name, e-mail, phone and address first: it is updated, never created again, so `paymentCustomerId` never changes. The organization and its customer change together or not at all: if Stripe does not take the update, nothing is changed and the answer is 503 `STRIPE_UNAVAILABLE`. New terms apply to invoices issued from now on.",
    '',
    'Retries are safe; send an `Idempotency-Key` to get the first final answer back (`Idempotent-Replayed: true`). A 503 or 500 is not final: the same key runs the change again.',
  ].join('\n'),
  idempotencyKey: true,
  parameters: [INTERNAL_ORG_ID_PARAMETER],
  requestBody: {
    name: 'OrganizationUpdateRequest',
    schema: OrganizationUpdateRequest,
    example: { billingEmail: 'billing@acme.test', paymentTerms: 'net60' },
  },
  responses: {
    200: {
      description:
        'The organization as it now stands (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again).',
      body: { name: 'OrganizationResponse', schema: OrganizationResponseBody },
      examples: {
        net60: {
          summary: 'Moved to Net 60',
          value: { success: true, data: { organization: { ...ORGANIZATION, paymentTerms: 'net60' } } },
        },
      },
      headers: REPLAYABLE,
    },
    400: {
      description:
        'The body is invalid (`VALIDATION_ERROR`, every problem in `details`; `NO_CHANGES` when it names no field to change), or the `Idempotency-Key` was used before with another body (`IDEMPOTENCY_KEY_REUSED`). The body is checked first: `UNSUPPORTED_CONTENT_TYPE`, `BODY_REQUIRED`, `MALFORMED_JSON`, `INVALID_BODY`, `BODY_TOO_LARGE`, `NESTING_TOO_DEEP`.',
      body: { name: 'OrganizationChangeBadRequestError', schema: OrganizationChangeBadRequestBody },
      examples: {
        validation: {
          summary: 'Field rules',
          value: {
            error: 'Validation Error',
            message: 'The request body is invalid (2 problems; see details)',
            code: 'VALIDATION_ERROR',
            details: [
              { code: 'INVALID_EMAIL', message: 'billingEmail must be a valid email address', path: ['billingEmail'] },
              {
                code: 'INVALID_VALUE',
                message: 'paymentTerms must be one of "net15", "net30", "net60"',
                path: ['paymentTerms'],
              },
            ],
          },
        },
      },
      headers: REPLAYABLE,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(UPDATE_ROW.scope),
    404: notFound,
    409: idempotencyKeyInUseResponse,
    429: rateLimitedResponse(UPDATE_ROW.limitPerMinute),
    500: internalError(UPDATE_ROW),
    503: {
      description:
        'Stripe did not take the new customer details (unreachable, or its answer was lost), so nothing was changed: neither the organization nor its customer. Retry after `Retry-After` seconds, with exponential backoff; the same `Idempotency-Key` runs the change again.',
      body: { name: 'StripeUnavailableError', schema: StripeUnavailableBody },
      examples: {
        stripeUnavailable: {
          summary: 'Stripe unavailable',
          value: {
            error: 'Service Unavailable',
            message:
              'Stripe did not take the new customer details, so nothing was changed; retry with exponential backoff',
            code: 'STRIPE_UNAVAILABLE',
            details: [],
          },
        },
      },
      headers: { required: [...AUTHENTICATED_HEADERS.required, 'Retry-After'] },
    },
  },
};
