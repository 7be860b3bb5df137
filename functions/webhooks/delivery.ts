// zod/mini: the dispatcher parses every queue message with this, and the classic API would dominate its cold start.
import * as z from 'zod/mini';
import type { PartnerId } from '../domain/partners/partner';
import type { WebhookEventKind } from '../domain/events/order-event-kinds';

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
 * (docs/architecture.md, "Webhook bodies": frozen at creation). A replay starts a new `chain` of
 * attempts for the same id and body; `attemptCount` counts the attempts of the current chain.
 */
export interface Delivery {
  readonly deliveryId: DeliveryId;
  readonly partnerId: PartnerId;
  readonly eventId: string;
  readonly event: WebhookEventKind;
  /**
   * The event's `data.order_id`, kept beside the body so partners can list an order's
   * deliveries (gsi2). Absent on deliveries stored before it was kept, and on raw
   * `order-event` tool events without one.
   */
  readonly orderId?: string;
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
  readonly organizationId?: string;
  /** When the order change was committed (the event's timestamp): delivery lag is measured from it. */
  readonly occurredAt?: string;
  /**
   * `<chain>:<attempt>` of the attempt that moved to the slow path (docs/webhooks.md, "Fast and
   * slow paths"): only the slow path's consumer sends it; a fast-path copy of its message forwards it.
   */
  readonly slowPathAttempt?: string;
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

/** A delivery with its attempt log: every chain's attempts, oldest first (earlier chains trimmed to the newest few). */
export interface DeliveryWithAttempts extends Delivery {
  readonly attempts: readonly DeliveryAttempt[];
}

/**
 * A message on the deliveries queue: "make attempt `attempt` of chain `chain` at `dueAt`".
 * SQS delays stop at 900 s, so a message may arrive before it is due and is then sent on
 * again (a hop) without an attempt. `partnerId` lets the dispatcher read the partner's
 * endpoint while it reads the delivery; messages queued before it was added have none.
 * The dispatcher reads every message's delivery for what it sends (messages queued when a
 * first attempt also carried `event` and `body` parse as before: unknown keys are dropped).
 */
export const DeliveryMessage = z.object({
  deliveryId: z.uuid(),
  partnerId: z.optional(z.string().check(z.minLength(1))),
  chain: z.int().check(z.positive()),
  attempt: z.int().check(z.positive()),
  dueAt: z.iso.datetime({ offset: true }),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;
