// zod/mini: the embed Lambda parses the decision forms with these, the orders Lambda the sandbox decisions.
import * as z from 'zod/mini';
import { ValidationFailed } from '../errors';
import { optionalText, requiredField, requiredText, toValidationIssues } from '../validation';
import { MAX_REJECTION_REASON_LENGTH } from './approval-request';

/**
 * An approver's reason for a rejection: single-line text like every stored text (a line break is a control
 * character), 1-500 characters once trimmed. The one rule of the module's form and the partner API's sandbox reject.
 */
export const RejectionReason = requiredText(MAX_REJECTION_REASON_LENGTH);

/** An approver's comment on an approval: optional (blank is none), otherwise as a rejection's reason; module and API alike. */
export const ApprovalComment = optionalText(MAX_REJECTION_REASON_LENGTH);

export const RejectionInput = z.object({ reason: RejectionReason }, { error: requiredField });
export type RejectionInput = z.output<typeof RejectionInput>;

export const ApprovalCommentInput = z.object({ comment: ApprovalComment });
export type ApprovalCommentInput = z.output<typeof ApprovalCommentInput>;

/** The reason as given; ValidationFailed names the problem (missing, blank, too long, control characters). */
export function parseRejection(input: { reason?: unknown }): RejectionInput {
  return parsed(RejectionInput, input);
}

/** The comment as given, if any; ValidationFailed names the problem (too long, control characters). */
export function parseApprovalComment(input: { comment?: unknown }): ApprovalCommentInput {
  return parsed(ApprovalCommentInput, input);
}

function parsed<T extends z.ZodMiniType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
}
