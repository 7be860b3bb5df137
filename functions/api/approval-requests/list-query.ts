/**
 * The query of `GET /v1/organizations/{internalOrgId}/approval-requests`
 * (docs/orders-api.md): which status, how many, and after which request, as the orders
 * list pages. Unknown parameters are ignored, as unknown body fields are.
 */
// zod/mini: parsed by the orders Lambda at runtime.
import * as z from 'zod/mini';
import { MAX_APPROVAL_PAGE_SIZE } from '../../domain/approvals/approval-repository';
import { APPROVAL_STATUSES } from '../../domain/approvals/approval-request';
import { documented, LOWER_CASE_UUID_PATTERN } from '../../domain/documented-rules';
import { ValidationFailed } from '../../domain/errors';
import { requiredField, requiredText, toValidationIssues } from '../../domain/validation';

const Limit = z.pipe(
  z.string({ error: requiredField }).check(
    z.refine((value: string) => /^\d+$/.test(value), {
      message: `must be a whole number from 1 to ${MAX_APPROVAL_PAGE_SIZE}`,
      params: { code: 'INVALID_FORMAT' },
    }),
  ),
  z.pipe(z.transform(Number), z.number().check(z.int(), z.gte(1), z.lte(MAX_APPROVAL_PAGE_SIZE))),
);

export const ApprovalRequestListQuery = z.object({
  status: z.optional(z.enum(APPROVAL_STATUSES)),
  limit: z.optional(Limit),
  // Any other value is no request of the organization (INVALID_CURSOR); ids are stored in lower case.
  starting_after: z.optional(documented(requiredText(), { format: 'uuid', pattern: LOWER_CASE_UUID_PATTERN })),
});

export type ApprovalRequestListQuery = z.output<typeof ApprovalRequestListQuery>;

export function parseApprovalRequestListQuery(
  query: Record<string, string | undefined> | undefined,
): ApprovalRequestListQuery {
  const parsed = ApprovalRequestListQuery.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(
    issues,
    `The query is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
  );
}
