// zod/mini: the fan-out Lambda parses only this, and the classic API would dominate its cold start.
import * as z from 'zod/mini';
import { OrderEventKind } from './order-event-kinds';

/**
 * What the publisher puts on the order-events queue: the validated event, its owner,
 * and the id that de-duplicates it.
 */
export const OrderEventMessage = z.object({
  eventId: z.string().check(z.minLength(1), z.maxLength(128)),
  partnerId: z.string().check(z.minLength(1)),
  event: OrderEventKind,
  /** ISO 8601 time of the event; becomes the payload's `timestamp`. */
  timestamp: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});
export type OrderEventMessage = z.infer<typeof OrderEventMessage>;
