/** The sandbox's approver decisions on an approval request (docs/orders-api.md, "Approval requests"). */
import { SandboxApproveRequest, SandboxRejectRequest } from '../../domain/approvals/sandbox-decision-request';
import { apiRoute } from '../../routes';
import {
  ApproveConflictBody,
  RejectConflictBody,
  SandboxDecisionBadRequestBody,
  SandboxDecisionForbiddenBody,
  SandboxDecisionNotFoundBody,
} from '../pipeline/error-bodies';
import type { Example, ResponseDocument, RouteDocument } from '../openapi/route-document';
import {
  rateLimitedResponse,
  unauthorizedResponse,
  internalErrorResponse,
  REPLAYABLE_HEADERS,
  IDEMPOTENCY_KEY_IN_USE_EXAMPLE,
} from '../openapi/standard-responses';
import { APPROVED_APPROVAL_REQUEST, EXAMPLE_APPROVAL_REQUEST_ID, REJECTED_APPROVAL_REQUEST } from './examples';
import { ApprovalRequestChangeBody } from './response';
import { APPROVAL_REQUEST_ID_PARAMETER, requestNotFound } from './document';

// Approve and reject share one row's scope and window.
const DECISION_ROW = apiRoute('sandbox-approval-approve');

const REPLAYABLE = REPLAYABLE_HEADERS;

const error = (code: string, message: string) => ({ error: 'Conflict', message, code, details: [] });

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
const inFlight = IDEMPOTENCY_KEY_IN_USE_EXAMPLE;

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
      DECISION_ROW,
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
      DECISION_ROW,
      'Nothing was half-written; retry with exponential backoff (with the same `Idempotency-Key`: a 500 is never replayed).',
    ),
  },
};
