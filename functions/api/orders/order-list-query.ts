/**
 * The query of `GET /v1/orders` (docs/orders-api.md): which organization, how many, and
 * after which order. Unknown parameters are ignored, as unknown body fields are.
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

export const OrderListQuery = z.object({
  internal_org_id: requiredText(),
  limit: z.optional(Limit),
  // Any other value is no order of the organization (INVALID_CURSOR); ids are stored in lower case.
  starting_after: z.optional(documented(requiredText(), { format: 'uuid', pattern: LOWER_CASE_UUID_PATTERN })),
});

export type OrderListQuery = z.output<typeof OrderListQuery>;

export function parseOrderListQuery(query: Record<string, string | undefined> | undefined): OrderListQuery {
  const parsed = OrderListQuery.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(
    issues,
    `The query is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
  );
}
