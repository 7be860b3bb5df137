/**
 * The bodies of POST /v1/sandbox/approval-requests/{approval_request_id}/approve and
 * /reject (docs/orders-api.md): the approver, by the partner's `internal_user_id` (looked
 * up in the request's organization), and for a rejection the reason an approver gives in
 * the module (for an approval, the comment an approver may add). Unknown fields are ignored, as in every request body.
 */
// zod/mini: parsed by the orders Lambda at runtime.
import * as z from 'zod/mini';
import { requiredField, requiredText } from '../validation';
import { ApprovalComment, RejectionReason } from './approval-input';

export const SandboxApproveRequest = z.object(
  { internal_user_id: requiredText(), comment: ApprovalComment },
  { error: requiredField },
);
export type SandboxApproveRequest = z.output<typeof SandboxApproveRequest>;

export const SandboxRejectRequest = z.object(
  { internal_user_id: requiredText(), reason: RejectionReason },
  { error: requiredField },
);
export type SandboxRejectRequest = z.output<typeof SandboxRejectRequest>;
