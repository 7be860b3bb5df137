import type {
  ApprovalRequest,
  ApprovalRequestChange,
  ApprovalRequestList,
  SandboxApproveRequest,
  SandboxRejectRequest,
} from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';
import { type ChangeOptions, idempotencyKeyOf } from './organizations.js';

export interface ApprovalRequestListParams {
  /** Your `internalOrgId`. */
  readonly internalOrgId: string;
  /** Only requests in this status as of now (a pending one past its expiry is `expired`). */
  readonly status?: ApprovalRequest['status'];
  /** Requests per page (the API's `limit`); the iteration fetches every page either way. */
  readonly pageSize?: number;
}

/** An approver's decision as the sandbox takes it: your `internalUserId` of an approver of the request's organization. */
export interface ApproveInput {
  readonly internalUserId: string;
  /** The approver's comment for the requester: at most 500 characters, single-line. */
  readonly comment?: string;
}

/** `reason`: 1-500 characters, single-line, as the module requires one. */
export interface RejectInput {
  readonly internalUserId: string;
  readonly reason: string;
}

const segment = encodeURIComponent;

/** `GET /v1/organizations/{internalOrgId}/approval-requests` and `GET /v1/approval-requests/{approval_request_id}`. */
export class ApprovalRequests {
  constructor(private readonly transport: HttpTransport) {}

  retrieve(approvalRequestId: string): Promise<ApprovalRequest> {
    return this.transport.request<ApprovalRequest>({
      method: 'GET',
      path: `/v1/approval-requests/${segment(approvalRequestId)}`,
      credential: 'bearer',
      retryable: 'on-failure',
    });
  }

  /** Every request of the organization (of one status, if given), newest first, fetching page after page (`starting_after`) as you iterate. */
  async *list(params: ApprovalRequestListParams): AsyncGenerator<ApprovalRequest, void, undefined> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.transport.request<ApprovalRequestList>({
        method: 'GET',
        path: `/v1/organizations/${segment(params.internalOrgId)}/approval-requests`,
        query: { status: params.status, limit: params.pageSize, starting_after: startingAfter },
        credential: 'bearer',
        retryable: 'on-failure',
      });
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || !last) return;
      startingAfter = last.id;
    }
  }
}

/**
 * The sandbox's decisions (production answers 404): approve or reject a request as one
 * of your approvers would in the module, so your CI drives the approval flow. Each call
 * carries an `Idempotency-Key` its retries reuse, so a retry after a lost answer gets the
 * first answer again rather than `APPROVAL_NOT_PENDING`.
 */
export class SandboxApprovalRequests {
  constructor(private readonly transport: HttpTransport) {}

  /** Places the request's order; `approval.decided` and `order.created` follow. */
  approve(approvalRequestId: string, input: ApproveInput, options: ChangeOptions = {}): Promise<ApprovalRequestChange> {
    const body: SandboxApproveRequest = {
      internal_user_id: input.internalUserId,
      ...(input.comment === undefined ? {} : { comment: input.comment }),
    };
    return this.decide(approvalRequestId, 'approve', body, options);
  }

  /** Orders nothing; `approval.decided` (with the reason) follows. */
  reject(approvalRequestId: string, input: RejectInput, options: ChangeOptions = {}): Promise<ApprovalRequestChange> {
    const body: SandboxRejectRequest = { internal_user_id: input.internalUserId, reason: input.reason };
    return this.decide(approvalRequestId, 'reject', body, options);
  }

  private decide(
    approvalRequestId: string,
    action: 'approve' | 'reject',
    body: object,
    options: ChangeOptions,
  ): Promise<ApprovalRequestChange> {
    return this.transport.request<ApprovalRequestChange>({
      method: 'POST',
      path: `/v1/sandbox/approval-requests/${segment(approvalRequestId)}/${action}`,
      credential: 'bearer',
      body,
      headers: idempotencyKeyOf(options),
      retryable: 'on-failure',
    });
  }
}
