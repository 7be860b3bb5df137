// zod/mini: the embed Lambda parses the reject form with this.
import * as z from 'zod/mini';
import { ValidationFailed } from '../errors';
import { requiredField, requiredText, toValidationIssues } from '../validation';
import { MAX_REJECTION_REASON_LENGTH } from './approval-request';

/** An approver's reason for a rejection: single-line text like every stored text, 1-500 characters once trimmed. */
export const RejectionInput = z.object({ reason: requiredText(MAX_REJECTION_REASON_LENGTH) }, { error: requiredField });
export type RejectionInput = z.output<typeof RejectionInput>;

/** The reason as given; ValidationFailed names the problem (missing, blank, too long, control characters). */
export function parseRejection(input: { reason?: unknown }): RejectionInput {
  const parsed = RejectionInput.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(issues, issues.map((issue) => issue.message).join('; '));
}
