/**
 * POST /v1/organizations/{internalOrgId}/shipping-locations and PATCH
 * .../shipping-locations/{internalShippingLocationId} in the partner API document.
 */
import * as z from 'zod/mini';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import {
  ShippingLocationCreateRequest,
  ShippingLocationUpdateRequest,
} from '../../domain/organizations/change-requests';
import { MAX_LOCATIONS_PER_ORGANIZATION } from '../../domain/organizations/organization-setup';
import { type ApiRoute, apiRoute } from '../../routes';
import {
  ShippingLocationUpdateConflictBody,
  OrganizationChangeBadRequestBody,
  ShippingLocationCreateConflictBody,
  ShippingLocationNotFoundBody,
} from '../pipeline/error-bodies';
import type { ParameterDocument, ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
  REPLAYABLE_HEADERS,
  IDEMPOTENCY_KEY_IN_USE_EXAMPLE,
  internalErrorResponse,
  ORGANIZATION_NOT_FOUND_EXAMPLE,
} from '../openapi/standard-responses';
import { INTERNAL_ORG_ID_PARAMETER } from '../organization-users/document';
import { ShippingLocationResponseBody } from './response';

const SHIPPING_LOCATION_CREATE_ROW = apiRoute('shipping-location-create');
const SHIPPING_LOCATION_UPDATE_ROW = apiRoute('shipping-location-update');

const REPLAYABLE = REPLAYABLE_HEADERS;

const INTERNAL_SHIPPING_LOCATION_ID_PARAMETER: ParameterDocument = {
  name: 'internalShippingLocationId',
  in: 'path',
  required: true,
  description:
    'Your `internalShippingLocationId` of the location, as given to setup or to POST .../shipping-locations.',
  schema: documented(z.string(), PATH_PARAMETER_RULES.partnerId),
};

const LOCATION = {
  id: '9b094541-ec69-45f7-b315-8d5ea707590f',
  name: 'Warehouse',
  nickname: 'North',
  internalShippingLocationId: 'loc-2',
  address: { line1: '9 Dock Rd', city: 'Austin', province: 'Texas', postalCode: '78702', country: 'United States' },
  isDefault: true,
  isActive: true,
};

const badRequest = (extra: string): ResponseDocument => ({
  description: `The body is invalid (\`VALIDATION_ERROR\`, every problem in \`details\`${extra}), or the \`Idempotency-Key\` was used before with another body (\`IDEMPOTENCY_KEY_REUSED\`). The body is checked first: \`UNSUPPORTED_CONTENT_TYPE\`, \`BODY_REQUIRED\`, \`MALFORMED_JSON\`, \`INVALID_BODY\`, \`BODY_TOO_LARGE\`, \`NESTING_TOO_DEEP\`.`,
  body: { name: 'OrganizationChangeBadRequestError', schema: OrganizationChangeBadRequestBody },
  examples: {
    validation: {
      summary: 'Field rules',
      value: {
        error: 'Validation Error',
        message: 'The request body is invalid (1 problem; see details)',
        code: 'VALIDATION_ERROR',
        details: [
          {
            code: 'INVALID_US_STATE',
            message:
              'address.province must be a US state or the District of Columbia, by full name or USPS abbreviation',
            path: ['address', 'province'],
          },
        ],
      },
    },
  },
  headers: REPLAYABLE,
});

const notFound = (what: string): ResponseDocument => ({
  description: `None of your organizations has this \`internalOrgId\` (\`ORGANIZATION_NOT_FOUND\`; another partner's organization is not yours, so it is not found either)${what}.`,
  body: { name: 'ShippingLocationNotFoundError', schema: ShippingLocationNotFoundBody },
  examples: {
    organizationNotFound: ORGANIZATION_NOT_FOUND_EXAMPLE,
    ...(what
      ? {
          locationNotFound: {
            summary: 'Unknown location',
            value: {
              error: 'Not Found',
              message: 'No shipping location with internalShippingLocationId "loc-9" in the organization',
              code: 'SHIPPING_LOCATION_NOT_FOUND',
              details: [],
            },
          },
        }
      : {}),
  },
  headers: AUTHENTICATED_HEADERS,
});

const internalError = (route: ApiRoute): ResponseDocument =>
  internalErrorResponse(
    route,
    'Nothing was half-written; retry with exponential backoff (with the same `Idempotency-Key`: a 500 is never replayed).',
  );

const inFlight = IDEMPOTENCY_KEY_IN_USE_EXAMPLE;

export const CREATE_SHIPPING_LOCATION_ROUTE: RouteDocument = {
  operationId: 'createShippingLocation',
  tag: 'Provisioning',
  summary: 'Add a shipping location to an organization',
  description: [
    `One location, with the fields and rules of setup's \`shippingLocations\` items (trimmed, provinces normalized to full state names, only the United States). At most ${MAX_LOCATIONS_PER_ORGANIZATION} per organization.`,
    '',
    "`isDefault: true` makes it the organization's default: the previous default stops being one in the same transaction (setup, by contrast, keeps an existing default). New locations are active.",
    '',
    'Retries are safe; send an `Idempotency-Key` to get the first answer back (`Idempotent-Replayed: true`); without one, a repeat is 409 `SHIPPING_LOCATION_ALREADY_EXISTS`.',
  ].join('\n'),
  idempotencyKey: true,
  parameters: [INTERNAL_ORG_ID_PARAMETER],
  requestBody: {
    name: 'ShippingLocationCreateRequest',
    schema: ShippingLocationCreateRequest,
    example: {
      internalShippingLocationId: 'loc-2',
      name: 'Warehouse',
      nickname: 'North',
      isDefault: true,
      address: { line1: '9 Dock Rd', city: 'Austin', province: 'tx', postalCode: '78702' },
      contact: { name: 'Dock', phone: '512-555-0102' },
      deliveryInstructions: 'Ring the bell',
    },
  },
  responses: {
    201: {
      description:
        'Added (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again). `contact` and `deliveryInstructions` are stored but not echoed, as at setup.',
      body: { name: 'ShippingLocationResponse', schema: ShippingLocationResponseBody },
      examples: {
        created: { summary: 'A new default location', value: { success: true, data: { shippingLocation: LOCATION } } },
      },
      headers: REPLAYABLE,
    },
    400: badRequest(
      `; \`TOO_MANY_ITEMS\` when the organization has ${MAX_LOCATIONS_PER_ORGANIZATION} locations already`,
    ),
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(SHIPPING_LOCATION_CREATE_ROW.scope),
    404: notFound(''),
    409: {
      description:
        'The organization already has a location with this `internalShippingLocationId` (`SHIPPING_LOCATION_ALREADY_EXISTS`; change it with PATCH), or a request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`).',
      body: { name: 'ShippingLocationCreateConflictError', schema: ShippingLocationCreateConflictBody },
      examples: {
        alreadyExists: {
          summary: 'The location exists',
          value: {
            error: 'Conflict',
            message: 'The organization already has a shipping location with internalShippingLocationId "loc-2"',
            code: 'SHIPPING_LOCATION_ALREADY_EXISTS',
            details: [],
          },
        },
        idempotencyKeyInUse: inFlight,
      },
      headers: REPLAYABLE,
    },
    429: rateLimitedResponse(SHIPPING_LOCATION_CREATE_ROW.limitPerMinute),
    500: internalError(SHIPPING_LOCATION_CREATE_ROW),
  },
};

export const UPDATE_SHIPPING_LOCATION_ROUTE: RouteDocument = {
  operationId: 'updateShippingLocation',
  tag: 'Provisioning',
  summary: 'Change a shipping location',
  description: [
    'Changes only the fields you send: `name`, `nickname`, `address` (the whole address, normalized as at setup), `contact`, `deliveryInstructions` (`null` removes an optional field; a blank one changes nothing), `isDefault` and `isActive`.',
    '',
    "`isDefault: true` makes the location the organization's default and the previous default stops being one, in the same transaction; `isDefault: false` on the default leaves the organization without one (orders must then name a location). The default location is always active: deactivating it, or making an inactive location the default, is 409 `DEFAULT_LOCATION_INACTIVE` (send `isDefault: false` with `isActive: false` to leave the organization without a default). `isActive: false` takes the location out of the module's checkout, and orders naming it are refused with `SHIPPING_LOCATION_UNAVAILABLE`; orders placed before keep the address they were placed with.",
    '',
    'Retries are safe; send an `Idempotency-Key` to get the first answer back (`Idempotent-Replayed: true`).',
  ].join('\n'),
  idempotencyKey: true,
  parameters: [INTERNAL_ORG_ID_PARAMETER, INTERNAL_SHIPPING_LOCATION_ID_PARAMETER],
  requestBody: {
    name: 'ShippingLocationUpdateRequest',
    schema: ShippingLocationUpdateRequest,
    example: {
      nickname: null,
      isDefault: true,
      address: { line1: '9 Dock Rd', city: 'Austin', province: 'tx', postalCode: '78702' },
    },
  },
  responses: {
    200: {
      description:
        'The location as it now stands (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again).',
      body: { name: 'ShippingLocationResponse', schema: ShippingLocationResponseBody },
      examples: {
        deactivated: {
          summary: 'An inactive location',
          value: { success: true, data: { shippingLocation: { ...LOCATION, isDefault: false, isActive: false } } },
        },
      },
      headers: REPLAYABLE,
    },
    400: badRequest('; `NO_CHANGES` when it names no field to change'),
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(SHIPPING_LOCATION_UPDATE_ROW.scope),
    404: notFound(
      ', or the organization has no location with this `internalShippingLocationId` (`SHIPPING_LOCATION_NOT_FOUND`)',
    ),
    409: {
      description:
        'The change would leave the default location inactive (`DEFAULT_LOCATION_INACTIVE`: deactivating the default, or making an inactive location the default; make another location the default first, or send `isDefault: false` with `isActive: false`), or a request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`; retry shortly). Nothing was changed.',
      body: { name: 'ShippingLocationUpdateConflictError', schema: ShippingLocationUpdateConflictBody },
      examples: {
        defaultLocationInactive: {
          summary: 'Deactivating the default',
          value: {
            error: 'Conflict',
            message:
              'Shipping location "loc-1" would be the default and inactive: make another location the default first, or send isDefault: false with isActive: false',
            code: 'DEFAULT_LOCATION_INACTIVE',
            details: [],
          },
        },
        idempotencyKeyInUse: inFlight,
      },
      headers: REPLAYABLE,
    },
    429: rateLimitedResponse(SHIPPING_LOCATION_UPDATE_ROW.limitPerMinute),
    500: internalError(SHIPPING_LOCATION_UPDATE_ROW),
  },
};
