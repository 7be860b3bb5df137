/**
 * POST /v1/organizations/setup in the partner API document: the request schema the
 * handler parses with (`SetupRequest`), the response it answers with
 * (`SetupResponseBody`) and the error bodies `functions/error-outcomes/` makes for it.
 */
import { SetupRequest } from '../../domain/organizations/setup-request';
import { apiRoute } from '../../routes';
import { SetupBadRequestBody, SetupConflictBody } from '../pipeline/error-bodies';
import type { RouteDocument } from '../openapi/route-document';
import {
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  serverErrorResponse,
  REPLAYABLE_HEADERS,
  IDEMPOTENCY_KEY_IN_USE_EXAMPLE,
} from '../openapi/standard-responses';
import { SetupResponseBody } from './response';

const SETUP_ROUTE_ROW = apiRoute('setup');

const REPLAYABLE = REPLAYABLE_HEADERS;

const ORGANIZATION_ID = '4f84fe3d-34b3-4b20-825a-e2c33467164c';
const PROFILE_ID = '52c48e1d-a6eb-4854-91e2-22d60c516cb6';

export const SETUP_ROUTE: RouteDocument = {
  operationId: 'setupOrganization',
  tag: 'Provisioning',
  summary: 'Provision an organization, a user and shipping locations',
  description: [
    'Creates a customer business (organization) with its first user (profile) and shipping locations, or adds a further user to an organization that already exists (`isNewOrganization: false`; locations with a new `internalShippingLocationId` are added, known ones stay as they are, and `shippingLocations` lists all of them).',
    '',
    'A new organization also gets a payment-provider customer (`paymentCustomerId`), billed on its `paymentTerms` (`net15`, `net30` or `net60`; default `net30`) at its `billingEmail` (default: `organizationEmail`), tax-exempt when `taxExempt` is true (default false: its orders and invoices carry no sales tax, and the Stripe customer `tax_exempt` is `exempt`); a setup of an existing organization leaves all three as stored (change them with PATCH /v1/organizations/{internalOrgId}). Strings are trimmed, blank optional strings count as absent, provinces may be full names or USPS abbreviations and come back as full names; only the United States is supported. At most 50 locations per request and 200 per organization. Unknown fields are ignored.',
    '',
    'Retries are safe: send an `Idempotency-Key` to get the first answer back (`Idempotent-Replayed: true`); without one, a repeat is 409 `USER_ALREADY_EXISTS` with the existing profile id.',
  ].join('\n'),
  idempotencyKey: true,
  requestBody: {
    name: 'SetupRequest',
    schema: SetupRequest,
    example: {
      internalOrgId: 'acme-2',
      organizationName: 'Acme Orthodontics',
      internalUserId: 'u-2',
      user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.test', phoneNumber: '+1 512 555 0100' },
      organizationEmail: 'billing@acme.test',
      billingAddress: { line1: '1 Billing Way', city: 'Austin', province: 'tx', postalCode: '78701' },
      shippingLocations: [
        {
          internalShippingLocationId: 'loc-1',
          name: 'Main office',
          nickname: 'HQ',
          isDefault: true,
          address: { line1: '1 Main St', line2: 'Suite 100', city: 'Austin', province: 'tx', postalCode: '78701' },
          contact: { name: 'Front desk', phone: '512-555-0101' },
          deliveryInstructions: 'Leave at reception',
        },
      ],
    },
  },
  responses: {
    200: {
      description:
        'Provisioned (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again). Input-only fields (`contact`, `deliveryInstructions`, `billingAddress`, `organizationEmail`, `organizationPhone`, `billingEmail`, `taxExempt`, `userAddress`) are stored but never echoed; `phone_number`, `nickname` and `line2` appear only when supplied.',
      body: { name: 'SetupResponse', schema: SetupResponseBody },
      examples: {
        newOrganization: {
          summary: 'A new organization',
          value: {
            success: true,
            data: {
              organization: {
                id: ORGANIZATION_ID,
                name: 'Acme Orthodontics',
                internalOrgId: 'acme-2',
                paymentCustomerId: 'cus_OGabNnGKCO9r5Q',
                paymentTerms: 'net30',
              },
              profile: {
                id: PROFILE_ID,
                partner: 'edeba35a-c0e1-4d5e-934f-5bc73ad2c424',
                organization: ORGANIZATION_ID,
                internal_user_id: 'u-2',
                user: 'f98fbe7d-b4f4-4a38-81bc-4b6eae5e748e',
                first_name: 'Ada',
                last_name: 'Lovelace',
                email: 'ada@acme.test',
                phone_number: '+1 512 555 0100',
                created_at: '2026-11-22T15:00:45.080Z',
              },
              shippingLocations: [
                {
                  id: '9b094541-ec69-45f7-b315-8d5ea707590f',
                  name: 'Main office',
                  nickname: 'HQ',
                  internalShippingLocationId: 'loc-1',
                  address: {
                    line1: '1 Main St',
                    line2: 'Suite 100',
                    city: 'Austin',
                    province: 'Texas',
                    postalCode: '78701',
                    country: 'United States',
                  },
                  isDefault: true,
                  isActive: true,
                },
              ],
              isNewOrganization: true,
            },
          },
        },
      },
      headers: REPLAYABLE,
    },
    400: {
      description:
        'The body is invalid (`VALIDATION_ERROR`, every problem listed in `details`, each with a stable `code` and a `path`), or the `Idempotency-Key` was used before with another body (`IDEMPOTENCY_KEY_REUSED`). The body is checked first: `UNSUPPORTED_CONTENT_TYPE`, `BODY_REQUIRED`, `MALFORMED_JSON`, `INVALID_UTF8` (not UTF-8), `INVALID_BODY` (not an object), `BODY_TOO_LARGE` (over 64 KiB), `NESTING_TOO_DEEP` (over 32 levels).',
      body: { name: 'SetupBadRequestError', schema: SetupBadRequestBody },
      examples: {
        validation: {
          summary: 'Field rules',
          value: {
            error: 'Validation Error',
            message: 'The request body is invalid (2 problems; see details)',
            code: 'VALIDATION_ERROR',
            details: [
              { code: 'INVALID_EMAIL', message: 'user.email must be a valid email address', path: ['user', 'email'] },
              {
                code: 'INVALID_US_STATE',
                message:
                  'shippingLocations[0].address.province must be a US state or the District of Columbia, by full name or USPS abbreviation',
                path: ['shippingLocations', '0', 'address', 'province'],
              },
            ],
          },
        },
        idempotencyKeyReused: {
          summary: 'Same Idempotency-Key, another body',
          value: {
            error: 'Validation Error',
            message: 'This Idempotency-Key was already used with a different request body',
            code: 'IDEMPOTENCY_KEY_REUSED',
            details: [],
          },
        },
      },
      headers: REPLAYABLE,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(SETUP_ROUTE_ROW.scope, 'resource'),
    409: {
      description:
        'The `internalUserId` already exists in the organization (`USER_ALREADY_EXISTS`, with the existing profile in `data`; nothing from the request was applied: treat it as "already provisioned"), or a request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`; retry shortly).',
      body: { name: 'SetupConflictError', schema: SetupConflictBody },
      examples: {
        userAlreadyExists: {
          summary: 'The user exists',
          value: {
            error: 'Conflict',
            message: 'A profile with this internalUserId already exists in the organization',
            code: 'USER_ALREADY_EXISTS',
            details: [],
            data: { profileId: PROFILE_ID, email: 'ada@acme.test' },
          },
        },
        idempotencyKeyInUse: IDEMPOTENCY_KEY_IN_USE_EXAMPLE,
      },
      headers: REPLAYABLE,
    },
    429: rateLimitedResponse(SETUP_ROUTE_ROW.limitPerMinute),
    500: serverErrorResponse(
      SETUP_ROUTE_ROW,
      'Something failed on our side (payment provider, storage). Nothing was half-written; retry with exponential backoff (with the same `Idempotency-Key`: a 500 is never replayed).',
    ),
  },
};
