/**
 * The approval request routes in the partner API document: the organization's list, one
 * request, and on sandbox an approver's two decisions. The query and body schemas the
 * handler parses with, the bodies it answers with (`ApprovalRequestBody`) and the errors
 * `functions/error-outcomes/` makes for them.
 */
import * as z from 'zod/mini';
import { DEFAULT_APPROVAL_PAGE_SIZE, MAX_APPROVAL_PAGE_SIZE } from '../../domain/approvals/approval-repository';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { apiRoute } from '../../routes';
import { ApprovalRequestNotFoundBody, ValidationErrorBody } from '../pipeline/error-bodies';
import { INTERNAL_ORG_ID_PARAMETER } from '../organization-users/document';
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
import {
  APPROVED_APPROVAL_REQUEST,
  EXAMPLE_APPROVAL_REQUEST_ID,
  EXPIRED_APPROVAL_REQUEST,
  PENDING_APPROVAL_REQUEST,
} from './examples';
import { ApprovalRequestListQuery } from './list-query';
import { ApprovalRequestBody, ApprovalRequestListBody } from './response';

const LIST_ROW = apiRoute('approval-request-list');
const GET_ROW = apiRoute('approval-request-get');

/** Anything but a UUID names no request: a 404 rather than a 400. */
export const APPROVAL_REQUEST_ID_PARAMETER: ParameterDocument = {
  name: 'approval_request_id',
  in: 'path',
  required: true,
  description: "The request's `id` (a UUID, any case), from `approval.requested`, a list, or a sandbox order's 202.",
  schema: documented(z.string(), PATH_PARAMETER_RULES.uuid),
};

/** A query parameter is text; the document shows `limit` as the number that text must spell. */
const PageSize = z._default(z.int().check(z.gte(1), z.lte(MAX_APPROVAL_PAGE_SIZE)), DEFAULT_APPROVAL_PAGE_SIZE);

const STATUS_MEANINGS =
  "`pending` (waiting for an approver), `approved` (its order was placed: `order_id`), `rejected` (with the approver's `reason`), `withdrawn` (by its requester, in the module) or `expired` (undecided 7 days after `created_at`). A pending request past `expires_at` reads as `expired` at once, whether or not the scheduled expiry has recorded it (and sent its `approval.decided`) yet.";

export const LIST_APPROVAL_REQUESTS_ROUTE: RouteDocument = {
  operationId: 'listApprovalRequests',
  tag: 'Approval requests',
  summary: "List an organization's approval requests",
  description: [
    'The approval requests of one of your organizations, newest first (creation time, then id), a page at a time: carts above their user\'s order limit, submitted for an approver of the organization to decide (docs/module.md, "Approvals"). Each is the order it would place: items, prices and address as priced at submission.',
    '',
    `\`status\` filters by ${STATUS_MEANINGS}`,
    '',
    '`has_more: true` means a next page exists: ask for it with `starting_after` set to the `id` of the last request of this page (and the same `status`). Unknown query parameters are ignored.',
  ].join('\n'),
  parameters: [
    INTERNAL_ORG_ID_PARAMETER,
    {
      name: 'status',
      in: 'query',
      required: false,
      description: 'Only requests in this status as of now (absent: every status).',
      schema: ApprovalRequestListQuery.shape.status,
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Requests per page, a whole number from 1 to ${MAX_APPROVAL_PAGE_SIZE} (default ${DEFAULT_APPROVAL_PAGE_SIZE}).`,
      schema: PageSize,
    },
    {
      name: 'starting_after',
      in: 'query',
      required: false,
      description:
        'The `id` (a lower-case UUID) of the last request of the previous page. It must be a request of the same organization (else 400 with detail `INVALID_CURSOR`).',
      schema: ApprovalRequestListQuery.shape.starting_after,
    },
  ],
  responses: {
    200: {
      description: 'One page of requests, newest first, each as it is now.',
      body: { name: 'ApprovalRequestList', schema: ApprovalRequestListBody },
      examples: {
        firstPage: {
          summary: 'A first page with more to come',
          value: { data: [PENDING_APPROVAL_REQUEST, APPROVED_APPROVAL_REQUEST], has_more: true },
        },
        empty: { summary: 'An organization without requests', value: { data: [], has_more: false } },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    400: {
      description:
        'The query is invalid: `status` not one of its values, `limit` not a whole number from 1 to 100, or `starting_after` not a request of this organization (`INVALID_CURSOR`). Every problem is in `details`.',
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
                code: 'INVALID_ENUM',
                message: 'status must be one of pending, approved, rejected, expired, withdrawn',
                path: ['status'],
              },
            ],
          },
        },
        cursor: {
          summary: 'starting_after of another organization',
          value: {
            error: 'Validation Error',
            message: 'The request is invalid',
            code: 'VALIDATION_ERROR',
            details: [
              {
                code: 'INVALID_CURSOR',
                message: 'starting_after must be the id of an approval request of the same organization',
                path: ['starting_after'],
              },
            ],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(LIST_ROW.scope),
    404: organizationNotFoundResponse(
      "None of your organizations has this `internalOrgId` (another partner's organization is not yours, so it is not found either).",
    ),
    429: rateLimitedResponse(LIST_ROW.limitPerMinute),
    500: internalErrorResponse(LIST_ROW, READ_RETRY),
  },
};

export const requestNotFound: ResponseDocument = {
  description:
    "No approval request of yours with this id (an id that is not a UUID names none; another partner's request is not told apart from none).",
  body: { name: 'ApprovalRequestNotFoundError', schema: ApprovalRequestNotFoundBody },
  examples: {
    approvalRequestNotFound: {
      summary: 'Unknown request',
      value: {
        error: 'Not Found',
        message: `No approval request ${EXAMPLE_APPROVAL_REQUEST_ID}`,
        code: 'APPROVAL_REQUEST_NOT_FOUND',
        details: [],
      },
    },
  },
  headers: AUTHENTICATED_HEADERS,
};

export const GET_APPROVAL_REQUEST_ROUTE: RouteDocument = {
  operationId: 'retrieveApprovalRequest',
  tag: 'Approval requests',
  summary: 'Retrieve an approval request',
  description: `One approval request as it is now: ${STATUS_MEANINGS} The decision's fields (\`decided_at\`, \`decided_by\`, \`reason\`, \`order_id\`) are \`null\` until and unless the outcome has them.`,
  parameters: [APPROVAL_REQUEST_ID_PARAMETER],
  responses: {
    200: {
      description: 'The request.',
      body: { name: 'ApprovalRequest', schema: ApprovalRequestBody },
      examples: {
        pending: { summary: 'Waiting for an approver', value: PENDING_APPROVAL_REQUEST },
        approved: { summary: 'Approved: its order was placed', value: APPROVED_APPROVAL_REQUEST },
        expired: { summary: 'Undecided for 7 days', value: EXPIRED_APPROVAL_REQUEST },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: forbiddenResponse(GET_ROW.scope),
    404: requestNotFound,
    429: rateLimitedResponse(GET_ROW.limitPerMinute),
    500: internalErrorResponse(GET_ROW, READ_RETRY),
  },
};
