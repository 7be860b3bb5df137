/**
 * The query of `GET /v1/webhooks/deliveries` (docs/webhooks.md, "Inspecting and retrying
 * deliveries"): the filters, how many, and after which delivery. Unknown parameters are
 * ignored, as on `GET /v1/orders`.
 */
// zod/mini: parsed by the webhooks API Lambda at runtime.
import * as z from 'zod/mini';
import { documented, LOWER_CASE_UUID_PATTERN } from '../../domain/documented-rules';
import { ValidationFailed } from '../../domain/errors';
import { requiredField, requiredText, toValidationIssues } from '../../domain/validation';
import { DeliveryStatus } from '../../webhooks/delivery';
import { WebhookEventKind } from '../../domain/events/order-event-kinds';
import { MAX_DELIVERY_PAGE_SIZE } from '../../webhooks/partner-webhooks';

const Limit = z.pipe(
  z.string({ error: requiredField }).check(
    z.refine((value: string) => /^\d+$/.test(value), {
      message: `must be a whole number from 1 to ${MAX_DELIVERY_PAGE_SIZE}`,
      params: { code: 'INVALID_FORMAT' },
    }),
  ),
  z.pipe(z.transform(Number), z.number().check(z.int(), z.gte(1), z.lte(MAX_DELIVERY_PAGE_SIZE))),
);

export const DeliveryListQuery = z.object({
  status: z.optional(DeliveryStatus),
  event: z.optional(WebhookEventKind),
  order_id: z.optional(requiredText()),
  /** Any offset; compared in UTC with the deliveries' creation times. */
  since: z.optional(z.iso.datetime({ offset: true })),
  limit: z.optional(Limit),
  // Any other value is none of the caller's deliveries (INVALID_CURSOR); ids are stored in lower case.
  starting_after: z.optional(documented(requiredText(), { format: 'uuid', pattern: LOWER_CASE_UUID_PATTERN })),
});
export type DeliveryListQuery = z.output<typeof DeliveryListQuery>;

export function parseDeliveryListQuery(query: Record<string, string | undefined> | undefined): DeliveryListQuery {
  const parsed = DeliveryListQuery.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error);
  throw new ValidationFailed(
    issues,
    `The query is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}; see details)`,
  );
}
