// zod/mini: the fan-out Lambda parses only this, and the classic API would dominate its cold start.
import * as z from 'zod/mini';
import { WebhookEventKind } from './order-event-kinds';

/**
 * What the publisher puts on the order-events queue (an order's or an approval request's
 * event, whatever its kind): the validated event, its owner,
 * and the id that de-duplicates it. `requestId`, `orderId` and `organizationId` correlate
 * it with the request that made the change (docs/operations.md, "Following one order"):
 * they travel to the delivery and its attempts' log lines, never into the partner's payload.
 */
export const OrderEventMessage = z.object({
  eventId: z.string().check(z.minLength(1), z.maxLength(128)),
  partnerId: z.string().check(z.minLength(1)),
  event: WebhookEventKind,
  /** ISO 8601 time of the event; becomes the payload's `timestamp`. */
  timestamp: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
  requestId: z.optional(z.string().check(z.maxLength(256))),
  orderId: z.optional(z.string().check(z.maxLength(128))),
  organizationId: z.optional(z.string().check(z.maxLength(128))),
});
export type OrderEventMessage = z.infer<typeof OrderEventMessage>;
