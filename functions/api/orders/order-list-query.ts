/**
 * The query of `GET /v1/orders` (docs/orders-api.md): which organization, how many, after
 * which order, and the filters (PO number, user, creation range). Unknown parameters are ignored, as unknown body fields are.
 */
// zod/mini: parsed by the orders Lambda at runtime.
import * as z from 'zod/mini';
import { documented, LOWER_CASE_UUID_PATTERN } from '../../domain/documented-rules';
import { ValidationFailed } from '../../domain/errors';
import { MAX_ORDER_PAGE_SIZE } from '../../domain/orders/order-repository';
import { requiredField, requiredText, toValidationIssues } from '../../domain/validation';

const Limit = z.pipe(
  z.string({ error: requiredField }).check(
    z.refine((value: string) => /^\d+$/.test(value), {
      message: `must be a whole number from 1 to ${MAX_ORDER_PAGE_SIZE}`,
      params: { code: 'INVALID_FORMAT' },
    }),
  ),
  z.pipe(z.transform(Number), z.number().check(z.int(), z.gte(1), z.lte(MAX_ORDER_PAGE_SIZE))),
);

/** An ISO 8601 date-time (offset allowed), as the UTC instant orders' `created_at` is stored in. */
const Instant = z.pipe(
  z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z' }),
  z.transform((value: string) => new Date(value).toISOString()),
);

export const OrderListQuery = z.object({
  internal_org_id: requiredText(),
  limit: z.optional(Limit),
  // Any other value is no order of the organization (INVALID_CURSOR); ids are stored in lower case.
  starting_after: z.optional(documented(requiredText(), { format: 'uuid', pattern: LOWER_CASE_UUID_PATTERN })),
  /** Exactly this PO number (as given at checkout). */
  po_number: z.optional(requiredText(64)),
  /** Orders of this user: your `internalUserId` (the requester's, on approved orders). */
  internal_user_id: z.optional(requiredText()),
  /** Created at or after this instant: ISO 8601 with a time and `Z` or an offset. */
  created_gte: z.optional(Instant),
  /** Created before this instant: ISO 8601 with a time and `Z` or an offset. */
  created_lt: z.optional(Instant),
});

export type OrderListQuery = z.output<typeof OrderListQuery>;

export function parseOrderListQuery(query: Record<string, string | undefined> | undefined): OrderListQuery {
  const parsed = OrderListQuery.safeParse(query ?? {});
  if (parsed.success) {
    const { created_gte: gte, created_lt: lt } = parsed.data;
    if (gte === undefined || lt === undefined || gte < lt) return parsed.data;
    const issue = { code: 'INVALID_RANGE', message: 'created_lt must be after created_gte', path: ['created_lt'] };
    throw new ValidationFailed([issue], `The query is invalid (1 problem; see details)`);
  }
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(
    issues,
    `The query is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
  );
}
