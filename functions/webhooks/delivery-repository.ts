import type { PartnerId } from '../domain/partners/partner';
import type {
  AlertStatus,
  Delivery,
  DeliveryAttempt,
  DeliveryId,
  DeliveryStatus,
  DeliveryWithAttempts,
} from './delivery';
import type { WebhookEventKind } from '../domain/events/order-event-kinds';

/** What one recorded attempt changes on its delivery. */
export interface AttemptOutcome {
  readonly attempt: DeliveryAttempt;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt?: string;
  /** Set with the `failed` status: the alert still has to go out. */
  readonly alertStatus?: AlertStatus;
}

/** Which of a partner's deliveries a page holds; every field narrows. */
export interface DeliveryFilter {
  readonly status?: DeliveryStatus;
  readonly event?: WebhookEventKind;
  readonly orderId?: string;
  /** Created at or after this ISO 8601 time (UTC, as `toISOString` writes it). */
  readonly since?: string;
}

export interface DeliveryPage {
  /** Newest first (creation time, then id), each with its attempt log. */
  readonly deliveries: readonly DeliveryWithAttempts[];
  readonly hasMore: boolean;
}

/**
 * Storage port for deliveries and their attempts. Every state change is a conditional
 * write on (status, chain, attemptCount), so a message handled twice changes nothing twice.
 */
export interface DeliveryRepository {
  /**
   * Stores a new delivery unless one exists for the same event and partner: then returns
   * the existing one and stores nothing (event de-duplication).
   */
  createForEvent(delivery: Delivery): Promise<{ created: true } | { created: false; existing: Delivery }>;
  get(deliveryId: DeliveryId): Promise<Delivery | undefined>;
  /** The delivery the partner's event id already produced, if the event was fanned out to an endpoint before. */
  getByEvent(partnerId: PartnerId, eventId: string): Promise<Delivery | undefined>;
  markQueued(deliveryId: DeliveryId, at: Date): Promise<void>;
  /**
   * Records attempt `outcome.attempt.attempt` of a pending delivery whose chain and
   * attempt count still match; false when another handler already recorded it.
   */
  recordAttempt(delivery: Pick<Delivery, 'deliveryId'>, outcome: AttemptOutcome, at: Date): Promise<boolean>;
  /** Takes the failure alert (pending, or a lapsed claim) for sending; false when someone else holds it or it went out. */
  claimAlert(deliveryId: DeliveryId, now: Date, leaseUntil: Date): Promise<boolean>;
  /** The claimed alert went out (`sent`), could not go anywhere (`no-address`), or must be tried again (`pending`). */
  settleAlert(deliveryId: DeliveryId, status: 'sent' | 'no-address' | 'pending', at: Date): Promise<void>;
  /** Starts a new attempt chain (pending, no attempts) if the delivery is still on `expectedChain`. */
  startNewChain(deliveryId: DeliveryId, expectedChain: number, dueAt: Date, at: Date): Promise<boolean>;
  /**
   * Makes the waiting next attempt of a pending delivery due at `at` (a partner's retry),
   * if it is still the attempt after `attemptCount` of `chain`, due at `nextAttemptAt`;
   * false when it changed (it was made, or another retry brought it forward first).
   */
  bringForward(
    delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount' | 'nextAttemptAt'>,
    at: Date,
  ): Promise<boolean>;
  listAttempts(deliveryId: DeliveryId): Promise<DeliveryAttempt[]>;
  /** The partner's deliveries, newest first; `since`: created at or after that ISO time. */
  listByPartner(
    partnerId: PartnerId,
    options: { status?: DeliveryStatus; since?: string; limit: number },
  ): Promise<Delivery[]>;
  /**
   * One page of the partner's deliveries that match `filter`, newest first, after
   * `startingAfter` (a delivery of the same partner, and of the same order when filtering by one).
   */
  pageByPartner(
    partnerId: PartnerId,
    filter: DeliveryFilter,
    page: { limit: number; startingAfter?: Delivery },
  ): Promise<DeliveryPage>;
  /** Holds a pending delivery whose chain and attempt count still match (its endpoint is not sending); false otherwise. */
  hold(delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount'>, at: Date): Promise<boolean>;
  /** Ends the hold of a held delivery on `chain`, due at `dueAt`; false when it was not held (someone released it first). */
  release(deliveryId: DeliveryId, chain: number, dueAt: Date, at: Date): Promise<boolean>;
  /** Cancels a pending delivery (its endpoint was removed); false when it was no longer pending. */
  cancel(deliveryId: DeliveryId, at: Date): Promise<boolean>;
}
