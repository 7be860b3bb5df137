import type { OrdersApiDependencies } from '../../composition/orders-api-dependencies';
import { SandboxApproveRequest, SandboxRejectRequest } from '../../domain/approvals/sandbox-decision-request';
import type { ApprovalRequest } from '../../domain/approvals/approval-request';
import type { DecisionCompletionFor } from '../../domain/approvals/approval-service';
import { OrganizationNotFound } from '../../domain/errors';
import type { IdempotentAttempt } from '../../domain/idempotency/idempotency-guard';
import { apiHandler, idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../../http/responses';
import { parseApprovalRequestListQuery } from './list-query';
import { toApprovalRequestChangeResponse, toApprovalRequestListResponse, toApprovalRequestResponse } from './response';

type GetDependencies = () => Promise<OrdersApiDependencies>;

/** API Gateway sets the matched route's path parameters; an absent one is a route defined wrongly. */
const requestIdOf = (parameters: Record<string, string | undefined> | undefined): string =>
  parameters?.approval_request_id ?? '';

const decided = (request: ApprovalRequest) => json(200, toApprovalRequestChangeResponse(request));

/**
 * With an Idempotency-Key, the decision's 200 to replay, written in the decision's own
 * transaction (as setup's is), so a retry after a crash between commit and answer replays
 * it rather than finding the request decided (409 APPROVAL_NOT_PENDING).
 */
const completionOf = (
  idempotency: Extract<IdempotentAttempt, { kind: 'first' }> | undefined,
): DecisionCompletionFor | undefined =>
  idempotency &&
  ((request) => {
    const { statusCode, body } = decided(request);
    return idempotency.completionWith({ statusCode, body });
  });

/**
 * The approval request routes (docs/orders-api.md, "Approval requests"), served by the
 * orders function: the organization's requests and one request, and on sandbox an
 * approver's two decisions, which honour `Idempotency-Key`.
 */
export const approvalRequestRoutes = (getDependencies: GetDependencies) => ({
  'approval-request-list': apiHandler('approval-request-list', getDependencies, async ({ event, caller, deps }) => {
    const internalOrgId = event.pathParameters?.internalOrgId ?? '';
    const query = parseApprovalRequestListQuery(event.queryStringParameters);
    // Another partner's organization is none of this partner's: the same 404 as the orders list.
    const organization = await deps.organizations.getOrganization(caller.partnerId, internalOrgId);
    if (!organization) throw new OrganizationNotFound(caller.partnerId, internalOrgId);
    const page = await deps.approvalService.listForOrganization(organization.organization, {
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
    });
    return json(200, toApprovalRequestListResponse(page));
  }),

  'approval-request-get': apiHandler('approval-request-get', getDependencies, async ({ event, caller, deps }) => {
    const request = await deps.approvalService.get(requestIdOf(event.pathParameters), {
      partnerId: caller.partnerId,
    });
    return json(200, toApprovalRequestResponse(request));
  }),

  'sandbox-approval-approve': idempotentApiHandler(
    'sandbox-approval-approve',
    getDependencies,
    async ({ event, body, caller, deps, idempotency }) => {
      const { internal_user_id, comment } = parseBody(SandboxApproveRequest, body);
      const request = await deps.sandboxApprovals.approve(
        caller.partnerId,
        requestIdOf(event.pathParameters),
        { internalUserId: internal_user_id, ...(comment === undefined ? {} : { comment }) },
        completionOf(idempotency),
      );
      return decided(request);
    },
  ),

  'sandbox-approval-reject': idempotentApiHandler(
    'sandbox-approval-reject',
    getDependencies,
    async ({ event, body, caller, deps, idempotency }) => {
      const { internal_user_id, reason } = parseBody(SandboxRejectRequest, body);
      const request = await deps.sandboxApprovals.reject(
        caller.partnerId,
        requestIdOf(event.pathParameters),
        { internalUserId: internal_user_id, reason },
        completionOf(idempotency),
      );
      return decided(request);
    },
  ),
});
