/**
 * GET and PATCH /v1/organizations/{internalOrgId}/users/{internalUserId} in the partner
 * API document: the request schema the handler parses with (`ProfileUpdateRequest`), the
 * response it answers with and the error bodies `functions/error-outcomes/` makes for them.
 */
import * as z from 'zod/mini';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { ProfileUpdateRequest } from '../../domain/organizations/change-requests';
import { type ApiRoute, apiRoute } from '../../routes';
import { OrganizationChangeBadRequestBody, OrganizationUserNotFoundBody } from '../pipeline/error-bodies';
import type { ParameterDocument, ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  REPLAYABLE_HEADERS,
  idempotencyKeyInUseResponse,
  internalErrorResponse,
  ORGANIZATION_NOT_FOUND_EXAMPLE,
} from '../openapi/standard-responses';
import { OrganizationUserResponseBody } from './response';

const ORGANIZATION_USER_GET_ROW = apiRoute('organization-user-get');
const ORGANIZATION_USER_UPDATE_ROW = apiRoute('organization-user-update');

const REPLAYABLE = REPLAYABLE_HEADERS;

export const INTERNAL_ORG_ID_PARAMETER: ParameterDocument = {
  name: 'internalOrgId',
  in: 'path',
  required: true,
  description:
    "Your `internalOrgId` of the organization, as given to setup. Another partner's organization is not found.",
  schema: documented(z.string(), PATH_PARAMETER_RULES.partnerId),
};

const INTERNAL_USER_ID_PARAMETER: ParameterDocument = {
  name: 'internalUserId',
  in: 'path',
  required: true,
  description: 'Your `internalUserId` of the user, as given to setup.',
  schema: documented(z.string(), PATH_PARAMETER_RULES.partnerId),
};

const ORGANIZATION_ID = '4f84fe3d-34b3-4b20-825a-e2c33467164c';

const PROFILE = {
  id: '52c48e1d-a6eb-4854-91e2-22d60c516cb6',
  partner: 'edeba35a-c0e1-4d5e-934f-5bc73ad2c424',
  organization: ORGANIZATION_ID,
  internal_user_id: 'u-2',
  user: 'f98fbe7d-b4f4-4a38-81bc-4b6eae5e748e',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@acme.test',
  phone_number: '+1 512 555 0100',
  created_at: '2026-11-22T15:00:45.080Z',
  role: 'buyer',
  orderLimit: 2500,
  monthlyLimit: null,
  active: true,
};

const notFound: ResponseDocument = {
  description:
    "None of your organizations has this `internalOrgId` (`ORGANIZATION_NOT_FOUND`; another partner's organization is not yours, so it is not found either), or the organization has no user with this `internalUserId` (`PROFILE_NOT_FOUND`).",
  body: { name: 'OrganizationUserNotFoundError', schema: OrganizationUserNotFoundBody },
  examples: {
    organizationNotFound: ORGANIZATION_NOT_FOUND_EXAMPLE,
    profileNotFound: {
      summary: 'Unknown user',
      value: {
        error: 'Not Found',
        message: 'No user with internalUserId "u-9" in organization "acme-2"',
        code: 'PROFILE_NOT_FOUND',
        details: [],
      },
    },
  },
  headers: AUTHENTICATED_HEADERS,
};

const internalError = (route: ApiRoute): ResponseDocument =>
  internalErrorResponse(route, 'Retry with exponential backoff; a PATCH is safe to repeat.');

export const GET_ORGANIZATION_USER_ROUTE: RouteDocument = {
  operationId: 'retrieveOrganizationUser',
  tag: 'Provisioning',
  summary: 'Retrieve a user of an organization',
  description:
    'The user (profile) as setup answers it, plus its `role` (`buyer` or `approver`), its `orderLimit` (USD, `null` for no limit) and whether it is `active` (may sign in to the module; your switch, see PATCH).',
  parameters: [INTERNAL_ORG_ID_PARAMETER, INTERNAL_USER_ID_PARAMETER],
  responses: {
    200: {
      description: 'The user. `phone_number` appears only when the user has one.',
      body: { name: 'OrganizationUserResponse', schema: OrganizationUserResponseBody },
      examples: { user: { summary: 'A buyer with a limit', value: { success: true, data: { profile: PROFILE } } } },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(ORGANIZATION_USER_GET_ROW.scope),
    404: notFound,
    429: rateLimitedResponse(ORGANIZATION_USER_GET_ROW.limitPerMinute),
    500: internalError(ORGANIZATION_USER_GET_ROW),
  },
};

export const UPDATE_ORGANIZATION_USER_ROUTE: RouteDocument = {
  operationId: 'updateOrganizationUser',
  tag: 'Provisioning',
  summary: 'Change a user of an organization',
  description: [
    "Changes only the fields you send: `user.firstName`, `user.lastName`, `user.email`, `user.phoneNumber` (by setup's rules: trimmed, the same limits; a blank optional string changes nothing, `null` removes the phone number), `role`, `orderLimit` (USD above 0 with at most two decimals; `null` removes the limit) and `active`. Two changes of different fields at the same time are both kept. Emails need not be unique, as at setup.",
    '',
    '`active: false` signs the user out at once: its live module sessions end (their next request shows the sign-in-again page) and handshake links not yet used stop working; the handshake then answers 400 "Profile not set up for authentication". `active: true` lets the user sign in again through a new handshake.',
    '',
    'Retries are safe; send an `Idempotency-Key` to get the first answer back (`Idempotent-Replayed: true`).',
  ].join('\n'),
  idempotencyKey: true,
  parameters: [INTERNAL_ORG_ID_PARAMETER, INTERNAL_USER_ID_PARAMETER],
  requestBody: {
    name: 'OrganizationUserUpdateRequest',
    schema: ProfileUpdateRequest,
    example: { user: { email: 'ada.lovelace@acme.test' }, role: 'approver', orderLimit: null, active: true },
  },
  responses: {
    200: {
      description:
        'The user as it now stands (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again).',
      body: { name: 'OrganizationUserResponse', schema: OrganizationUserResponseBody },
      examples: {
        deactivated: {
          summary: 'A deactivated user',
          value: { success: true, data: { profile: { ...PROFILE, active: false } } },
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
              { code: 'INVALID_EMAIL', message: 'user.email must be a valid email address', path: ['user', 'email'] },
              {
                code: 'INVALID_AMOUNT',
                message: 'orderLimit must be a USD amount with at most two decimals',
                path: ['orderLimit'],
              },
            ],
          },
        },
      },
      headers: REPLAYABLE,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(ORGANIZATION_USER_UPDATE_ROW.scope),
    404: notFound,
    409: idempotencyKeyInUseResponse,
    429: rateLimitedResponse(ORGANIZATION_USER_UPDATE_ROW.limitPerMinute),
    500: internalError(ORGANIZATION_USER_UPDATE_ROW),
  },
};
