import { ProfileNotLinked } from '../errors';
import type { OrganizationRepository } from '../organizations/organization-repository';
import { findPartnerProfile } from '../organizations/partner-profile';
import type { Profile } from '../organizations/organization';
import type { PartnerId } from '../partners/partner';
import { profileSignInBlocker } from '../sessions/sign-in-eligibility';
import type { ApprovalRequest } from './approval-request';
import type { ApprovalService, DecisionCompletionFor } from './approval-service';

/**
 * Deciding approval requests through the sandbox API as the named approver would in the
 * module, so a partner's CI can drive the approval flow without a browser. The decision
 * is ApprovalService's own, so every rule of the module holds: an approver of the
 * request's organization (ApprovalForbidden), not its requester (SelfApprovalForbidden),
 * while the request waits (ApprovalNotPending). `completionFor`, with an Idempotency-Key,
 * is the key's completion, written in the decision's own transaction.
 */
export class SandboxApprovals {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly approvals: Pick<ApprovalService, 'get' | 'approve' | 'reject'>,
  ) {}

  async approve(
    partnerId: PartnerId,
    requestId: string,
    decision: { readonly internalUserId: string; readonly comment?: string },
    completionFor?: DecisionCompletionFor,
  ): Promise<ApprovalRequest> {
    const approver = await this.approverOf(partnerId, requestId, decision.internalUserId);
    return this.approvals.approve({
      requestId,
      approver,
      ...(decision.comment === undefined ? {} : { comment: decision.comment }),
      ...(completionFor ? { completionFor } : {}),
    });
  }

  /** `reason`: already parsed at the edge (1-500 characters). */
  async reject(
    partnerId: PartnerId,
    requestId: string,
    decision: { readonly internalUserId: string; readonly reason: string },
    completionFor?: DecisionCompletionFor,
  ): Promise<ApprovalRequest> {
    const approver = await this.approverOf(partnerId, requestId, decision.internalUserId);
    return this.approvals.reject({
      requestId,
      approver,
      reason: decision.reason,
      ...(completionFor ? { completionFor } : {}),
    });
  }

  /**
   * 1. the request must be the partner's (ApprovalNotFound: another partner's is not told apart from none);
   * 2. the user is looked up in the request's organization, where an approver must be
   *    (ProfileNotFound), so an `internal_user_id` used in several organizations is never ambiguous;
   * 3. it must be able to sign in, as a user of the module deciding it must (ProfileNotLinked).
   */
  private async approverOf(partnerId: PartnerId, requestId: string, internalUserId: string): Promise<Profile> {
    const request = await this.approvals.get(requestId, { partnerId });
    const profile = await findPartnerProfile(this.organizations, partnerId, {
      by: 'internal_user_id',
      internalUserId,
      internalOrgId: request.internalOrgId,
    });
    const blocker = profileSignInBlocker(profile);
    if (blocker) throw new ProfileNotLinked(blocker);
    return profile;
  }
}
