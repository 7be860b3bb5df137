import type { PartnerId } from '../domain/partners/partner';
import type { AlertStatus, Delivery, DeliveryAttempt, DeliveryId, DeliveryStatus } from './delivery';

/** What one recorded attempt changes on its delivery. */
export interface AttemptOutcome {
  readonly attempt: DeliveryAttempt;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt?: string;
  /** Set with the `failed` status: the alert still has to go out. */
  readonly alertStatus?: AlertStatus;
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
  listAttempts(deliveryId: DeliveryId): Promise<DeliveryAttempt[]>;
  /** The partner's deliveries, newest first; `since`: created at or after that ISO time. */
  listByPartner(partnerId: PartnerId, options: { status?: DeliveryStatus; since?: string; limit: number }): Promise<Delivery[]>;
  /** Holds a pending delivery whose chain and attempt count still match (its endpoint is not sending); false otherwise. */
  hold(delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount'>, at: Date): Promise<boolean>;
  /** Ends the hold of a held delivery on `chain`, due at `dueAt`; false when it was not held (someone released it first). */
  release(deliveryId: DeliveryId, chain: number, dueAt: Date, at: Date): Promise<boolean>;
  /** Cancels a pending delivery (its endpoint was removed); false when it was no longer pending. */
  cancel(deliveryId: DeliveryId, at: Date): Promise<boolean>;
}
