/**
 * The approval request routes in the partner API document: the organization's list, one
 * request, and on sandbox an approver's two decisions. The query and body schemas the
 * handler parses with, the bodies it answers with (`ApprovalRequestBody`) and the errors
 * `functions/error-outcomes.ts` makes for them.
 */
import * as z from 'zod/mini';
import { DEFAULT_APPROVAL_PAGE_SIZE, MAX_APPROVAL_PAGE_SIZE } from '../../domain/approvals/approval-repository';
import { SandboxApproveRequest, SandboxRejectRequest } from '../../domain/approvals/sandbox-decision-request';
import { documented, PATH_PARAMETER_RULES } from '../../domain/documented-rules';
import { apiRoute } from '../../routes';
import {
  ApprovalRequestNotFoundBody,
  ApproveConflictBody,
  OrganizationNotFoundBody,
  RejectConflictBody,
  SandboxDecisionBadRequestBody,
  SandboxDecisionForbiddenBody,
  SandboxDecisionNotFoundBody,
  ValidationErrorBody,
} from '../pipeline/error-bodies';
import { READ_RETRY, internalErrorResponse } from '../orders/order-api-responses';
import { INTERNAL_ORG_ID_PARAMETER } from '../organization-users/document';
import type { Example, ParameterDocument, ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  AUTHENTICATED_HEADERS,
  forbiddenResponse,
  rateLimitedResponse,
  unauthorizedResponse,
} from '../openapi/standard-responses';
import {
  APPROVED_APPROVAL_REQUEST,
  EXAMPLE_APPROVAL_REQUEST_ID,
  EXPIRED_APPROVAL_REQUEST,
  PENDING_APPROVAL_REQUEST,
  REJECTED_APPROVAL_REQUEST,
} from './examples';
import { ApprovalRequestListQuery } from './list-query';
import { ApprovalRequestBody, ApprovalRequestChangeBody, ApprovalRequestListBody } from './response';

const LIST_ROW = apiRoute('GET /v1/organizations/{internalOrgId}/approval-requests');
const GET_ROW = apiRoute('GET /v1/approval-requests/{approval_request_id}');
// Approve and reject share one row's scope and window.
const DECISION_ROW = apiRoute('POST /v1/sandbox/approval-requests/{approval_request_id}/approve');

const REPLAYABLE = { ...AUTHENTICATED_HEADERS, optional: ['Idempotent-Replayed'] } as const;

/** Anything but a UUID names no request: a 404 rather than a 400. */
const APPROVAL_REQUEST_ID_PARAMETER: ParameterDocument = {
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

const error = (code: string, message: string) => ({ error: 'Conflict', message, code, details: [] });

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
    404: {
      description:
        "None of your organizations has this `internalOrgId` (another partner's organization is not yours, so it is not found either).",
      body: { name: 'OrganizationNotFoundError', schema: OrganizationNotFoundBody },
      examples: {
        organizationNotFound: {
          summary: 'Unknown organization',
          value: {
            error: 'Not Found',
            message: 'No organization with internal_org_id "acme-9"',
            code: 'ORGANIZATION_NOT_FOUND',
            details: [],
          },
        },
      },
      headers: AUTHENTICATED_HEADERS,
    },
    429: rateLimitedResponse(LIST_ROW.limitPerMinute),
    500: internalErrorResponse(READ_RETRY),
  },
};

const requestNotFound: ResponseDocument = {
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
    500: internalErrorResponse(READ_RETRY),
  },
};

const decisionBadRequest = (fields: string): ResponseDocument => ({
  description: `The body is invalid (\`VALIDATION_ERROR\`, every problem in \`details\`: ${fields}; the body checks \`UNSUPPORTED_CONTENT_TYPE\`, \`BODY_REQUIRED\`, \`MALFORMED_JSON\`, \`INVALID_UTF8\`, \`INVALID_BODY\`, \`BODY_TOO_LARGE\`, \`NESTING_TOO_DEEP\` come first), the \`Idempotency-Key\` was used before with another body (\`IDEMPOTENCY_KEY_REUSED\`), or the approver cannot sign in to the module (\`PROFILE_NOT_LINKED\`: \`active: false\`, or disabled by an operator).`,
  body: { name: 'SandboxDecisionBadRequestError', schema: SandboxDecisionBadRequestBody },
  examples: {
    validation: {
      summary: 'No approver named',
      value: {
        error: 'Validation Error',
        message: 'The request body is invalid (1 problem; see details)',
        code: 'VALIDATION_ERROR',
        details: [{ code: 'REQUIRED', message: 'internal_user_id is required', path: ['internal_user_id'] }],
      },
    },
    profileNotLinked: {
      summary: 'A deactivated approver',
      value: {
        error: 'Validation Error',
        message: 'The profile was deactivated',
        code: 'PROFILE_NOT_LINKED',
        details: [],
      },
    },
  },
  headers: REPLAYABLE,
});

const decisionForbidden: ResponseDocument = {
  description: `The key lacks the \`${DECISION_ROW.scope}\` scope (\`FORBIDDEN\`), the user is not an approver (\`APPROVAL_FORBIDDEN\`: \`role\` is \`buyer\`), or the user is the request's requester (\`SELF_APPROVAL_FORBIDDEN\`: another approver decides it). Nothing was changed.`,
  body: { name: 'SandboxDecisionForbiddenError', schema: SandboxDecisionForbiddenBody },
  examples: {
    missingScope: {
      summary: 'Key without the scope',
      value: {
        error: 'Forbidden',
        message: `This API key lacks the ${DECISION_ROW.scope} scope`,
        code: 'FORBIDDEN',
        details: [],
      },
    },
    notAnApprover: {
      summary: 'A buyer deciding',
      value: {
        error: 'Forbidden',
        message: `Only approvers decide approval requests (${EXAMPLE_APPROVAL_REQUEST_ID})`,
        code: 'APPROVAL_FORBIDDEN',
        details: [],
      },
    },
    ownRequest: {
      summary: 'The requester deciding',
      value: {
        error: 'Forbidden',
        message: `Approval request ${EXAMPLE_APPROVAL_REQUEST_ID} is the approver's own`,
        code: 'SELF_APPROVAL_FORBIDDEN',
        details: [],
      },
    },
  },
  headers: REPLAYABLE,
};

const decisionNotFound: ResponseDocument = {
  description:
    "No approval request of yours with this id (`APPROVAL_REQUEST_NOT_FOUND`; an id that is not a UUID names none), or the request's organization has no user with this `internal_user_id` (`PROFILE_NOT_FOUND`: the approver is looked up there only).",
  body: { name: 'SandboxDecisionNotFoundError', schema: SandboxDecisionNotFoundBody },
  examples: {
    ...requestNotFound.examples,
    profileNotFound: {
      summary: 'No such user in the organization',
      value: {
        error: 'Not Found',
        message: 'No profile with internal_user_id u-9 in organization acme-1',
        code: 'PROFILE_NOT_FOUND',
        details: [],
      },
    },
  },
  headers: REPLAYABLE,
};

const notPending: Example = {
  summary: 'Decided before (or expired)',
  value: {
    ...error('APPROVAL_NOT_PENDING', `Approval request ${EXAMPLE_APPROVAL_REQUEST_ID} is approved (by Grace Hopper)`),
    data: { approval_request_id: EXAMPLE_APPROVAL_REQUEST_ID, status: 'approved' },
  },
};
const inFlight: Example = {
  summary: 'The same Idempotency-Key is in flight',
  value: error('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later'),
};

const IDEMPOTENCY =
  'Send an `Idempotency-Key` to make a retry safe: the first answer (200, 409, or a 400 of the body) comes back with `Idempotent-Replayed: true` for 24 hours. Without one, a retry after a lost answer is a 409 `APPROVAL_NOT_PENDING` whose `data.status` says the first try happened.';

const decisionRules = (what: string) =>
  `The approver is named by \`internal_user_id\`, looked up in the request's organization (so a user id in several organizations needs no \`internal_org_id\`), and decides as in the module: an approver (\`role: approver\`) who can sign in, not the requester, while the request waits (${what}). Unknown fields are ignored.`;

export const APPROVE_SANDBOX_APPROVAL_REQUEST_ROUTE: RouteDocument = {
  operationId: 'approveSandboxApprovalRequest',
  tag: 'Sandbox approval requests',
  summary: 'Approve an approval request as one of your approvers (sandbox)',
  description: [
    "Approves a waiting request as the approver would in the embedded module, so your CI drives the approval flow without a browser: the order is placed exactly as submitted (items, prices, address, PO number and notes), in the requester's name, and `approval.decided` (`decision: approved`, `order_id`) and `order.created` (with `approved_by`) follow.",
    '',
    decisionRules('`APPROVAL_NOT_PENDING` says what became of it'),
    '',
    IDEMPOTENCY,
  ].join('\n'),
  idempotencyKey: true,
  parameters: [APPROVAL_REQUEST_ID_PARAMETER],
  requestBody: { name: 'SandboxApproveRequest', schema: SandboxApproveRequest, example: { internal_user_id: 'u-2' } },
  responses: {
    200: {
      description:
        'Approved: the request with `order_id` (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again).',
      body: { name: 'ApprovalRequestChange', schema: ApprovalRequestChangeBody },
      examples: {
        approved: { summary: 'Approved', value: { success: true, approval_request: APPROVED_APPROVAL_REQUEST } },
      },
      headers: REPLAYABLE,
    },
    400: decisionBadRequest('`internal_user_id` missing or not text'),
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: decisionForbidden,
    404: decisionNotFound,
    409: {
      description:
        'The request no longer waits (`APPROVAL_NOT_PENDING`, `data.status` says what became of it: approved, rejected, withdrawn or expired), its order cannot be placed as submitted (`APPROVAL_CANNOT_BE_PLACED`, detail `SHIPPING_LOCATION_UNAVAILABLE`: its location was deactivated, or `REQUESTER_INACTIVE`: the requester can no longer sign in; the request keeps waiting, to be rejected or to expire), a request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`), or another change won a race (`CONCURRENT_MODIFICATION`; retry).',
      body: { name: 'ApproveConflictError', schema: ApproveConflictBody },
      examples: {
        notPending,
        cannotBePlaced: {
          summary: "The request's location was deactivated",
          value: {
            ...error(
              'APPROVAL_CANNOT_BE_PLACED',
              `Approval request ${EXAMPLE_APPROVAL_REQUEST_ID} ships to a location that is no longer active`,
            ),
            details: [
              {
                code: 'SHIPPING_LOCATION_UNAVAILABLE',
                message: `Approval request ${EXAMPLE_APPROVAL_REQUEST_ID} ships to a location that is no longer active`,
                path: [],
              },
            ],
          },
        },
        idempotencyKeyInUse: inFlight,
      },
      headers: REPLAYABLE,
    },
    429: rateLimitedResponse(DECISION_ROW.limitPerMinute),
    500: internalErrorResponse(
      'Nothing was half-written; retry with exponential backoff (with the same `Idempotency-Key`: a 500 is never replayed).',
    ),
  },
};

export const REJECT_SANDBOX_APPROVAL_REQUEST_ROUTE: RouteDocument = {
  operationId: 'rejectSandboxApprovalRequest',
  tag: 'Sandbox approval requests',
  summary: 'Reject an approval request as one of your approvers (sandbox)',
  description: [
    "Rejects a waiting request with the approver's `reason` (1-500 characters, single-line, as the module requires one), as the approver would in the embedded module; nothing is ordered, and `approval.decided` (`decision: rejected`, `decided_by`, `reason`) follows.",
    '',
    decisionRules('`APPROVAL_NOT_PENDING` says what became of it'),
    '',
    IDEMPOTENCY,
  ].join('\n'),
  idempotencyKey: true,
  parameters: [APPROVAL_REQUEST_ID_PARAMETER],
  requestBody: {
    name: 'SandboxRejectRequest',
    schema: SandboxRejectRequest,
    example: { internal_user_id: 'u-2', reason: 'We have gloves in stock; order them next month.' },
  },
  responses: {
    200: {
      description:
        'Rejected: the request with `decided_by` and `reason` (or, with `Idempotent-Replayed: true`, the first answer to this `Idempotency-Key` again).',
      body: { name: 'ApprovalRequestChange', schema: ApprovalRequestChangeBody },
      examples: {
        rejected: { summary: 'Rejected', value: { success: true, approval_request: REJECTED_APPROVAL_REQUEST } },
      },
      headers: REPLAYABLE,
    },
    400: decisionBadRequest(
      '`internal_user_id` missing, `reason` missing, blank, over 500 characters or with control characters',
    ),
    401: unauthorizedResponse('Authorization: Bearer <API_KEY>'),
    403: decisionForbidden,
    404: decisionNotFound,
    409: {
      description:
        'The request no longer waits (`APPROVAL_NOT_PENDING`, `data.status` says what became of it: approved, rejected, withdrawn or expired), a request with the same `Idempotency-Key` is still running (`IDEMPOTENCY_KEY_IN_USE`), or another change won a race (`CONCURRENT_MODIFICATION`; retry).',
      body: { name: 'RejectConflictError', schema: RejectConflictBody },
      examples: { notPending, idempotencyKeyInUse: inFlight },
      headers: REPLAYABLE,
    },
    429: rateLimitedResponse(DECISION_ROW.limitPerMinute),
    500: internalErrorResponse(
      'Nothing was half-written; retry with exponential backoff (with the same `Idempotency-Key`: a 500 is never replayed).',
    ),
  },
};
