// zod/mini: the dispatcher parses every queue message with this, and the classic API would dominate its cold start.
import * as z from 'zod/mini';
import type { PartnerId } from '../domain/partners/partner';
import { OrderEventKind } from './order-event-kinds';

export type DeliveryId = string & { readonly __brand: 'DeliveryId' };

/** `cancelled`: its endpoint was removed while it was pending (no alert; it can still be replayed). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/**
 * The failure alert of a failed delivery: `pending` until someone claims it, `sending`
 * while claimed (with a lease, so a crashed sender's claim expires), `sent` once SES took
 * it, `no-address` when the partner has no alert address.
 */
export type AlertStatus = 'pending' | 'sending' | 'sent' | 'no-address';

/**
 * One event for one partner endpoint. `body` holds the exact bytes sent on every attempt
 * (DESIGN.md: webhook bodies are frozen at creation). A replay starts a new `chain` of
 * attempts for the same id and body; `attemptCount` counts the attempts of the current chain.
 */
export interface Delivery {
  readonly deliveryId: DeliveryId;
  readonly partnerId: PartnerId;
  readonly eventId: string;
  readonly event: OrderEventKind;
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly chain: number;
  readonly attemptCount: number;
  /** When the next attempt of a pending delivery is due. */
  readonly nextAttemptAt?: string;
  /** The first attempt's message reached the deliveries queue. */
  readonly queued: boolean;
  /**
   * Set while a pending delivery waits for its paused or disabled endpoint: its message
   * was consumed without an attempt, and `webhook resume`/`enable` queues it again.
   */
  readonly heldAt?: string;
  readonly alertStatus?: AlertStatus;
  readonly alertLeaseUntil?: string;
  /** The request that made the order change (its `Request-Id`), when the change came from one: every attempt's log lines carry it. */
  readonly requestId?: string;
  readonly orderId?: string;
  readonly organizationId?: string;
  /** When the order change was committed (the event's timestamp): delivery lag is measured from it. */
  readonly occurredAt?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What one POST to the partner produced. */
export interface DeliveryAttempt {
  readonly chain: number;
  readonly attempt: number;
  readonly attemptedAt: string;
  readonly url: string;
  readonly succeeded: boolean;
  /** HTTP status, when the partner answered. */
  readonly statusCode?: number;
  /** Timeout, refused connection, refused destination, ... when there was no usable answer. */
  readonly error?: string;
  readonly latencyMs: number;
  /** The first 1 KiB of the response body. */
  readonly responseBody?: string;
}

/**
 * A message on the deliveries queue: "make attempt `attempt` of chain `chain` at `dueAt`".
 * SQS delays stop at 900 s, so a message may arrive before it is due and is then sent on
 * again (a hop) without an attempt. `partnerId` lets the dispatcher read the partner's
 * endpoint while it reads the delivery; messages queued before it was added have none.
 * A first attempt queued by the fan-out also carries its `event` and `body`, so on its
 * first receipt the dispatcher sends it without reading the delivery (`carriedAttempt`).
 */
export const DeliveryMessage = z.object({
  deliveryId: z.uuid(),
  partnerId: z.optional(z.string().check(z.minLength(1))),
  chain: z.int().check(z.positive()),
  attempt: z.int().check(z.positive()),
  dueAt: z.iso.datetime({ offset: true }),
  event: z.optional(OrderEventKind),
  body: z.optional(z.string()),
  /** A carried first attempt's correlation ids and commit time (Delivery's). */
  eventId: z.optional(z.string()),
  requestId: z.optional(z.string()),
  orderId: z.optional(z.string()),
  organizationId: z.optional(z.string()),
  occurredAt: z.optional(z.string()),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/**
 * The largest first-attempt message that carries its body: one 64 KiB unit of SQS
 * billing. A larger body stays in the delivery alone, and its first attempt reads it.
 */
export const CARRIED_MESSAGE_LIMIT_BYTES = 64 * 1024;

/** The fan-out's message for a delivery's first attempt: with its event and body when they fit. */
export function firstAttemptMessage(delivery: Delivery, dueAt: string): DeliveryMessage {
  const message: DeliveryMessage = { deliveryId: delivery.deliveryId, partnerId: delivery.partnerId, chain: 1, attempt: 1, dueAt };
  const { eventId, requestId, orderId, organizationId, occurredAt } = delivery;
  const correlation = Object.fromEntries(Object.entries({ eventId, requestId, orderId, organizationId, occurredAt }).filter(([, value]) => value !== undefined));
  const carrying: DeliveryMessage = { ...message, event: delivery.event, body: delivery.body, ...correlation };
  return Buffer.byteLength(JSON.stringify(carrying)) <= CARRIED_MESSAGE_LIMIT_BYTES ? carrying : message;
}
