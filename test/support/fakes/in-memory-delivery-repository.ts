import type { PartnerId } from '../../../functions/domain/partners/partner';
import type { Delivery, DeliveryAttempt, DeliveryId, DeliveryStatus } from '../../../functions/webhooks/delivery';
import type {
  AttemptOutcome,
  DeliveryFilter,
  DeliveryRepository,
} from '../../../functions/webhooks/delivery-repository';

/**
 * DeliveryRepository in a Map, with the DynamoDB adapter's conditions (status, chain,
 * attempt count; the alert claim and its lease), so unit tests of the dispatcher meet the
 * same refusals the table gives.
 */
export class InMemoryDeliveryRepository implements DeliveryRepository {
  readonly deliveries = new Map<DeliveryId, Delivery>();
  readonly attempts = new Map<DeliveryId, DeliveryAttempt[]>();

  /** Puts a delivery in as it stands; tests arrange any state this way. */
  seed(delivery: Delivery): Delivery {
    this.deliveries.set(delivery.deliveryId, delivery);
    return delivery;
  }

  async createForEvent(delivery: Delivery) {
    const existing = [...this.deliveries.values()].find(
      (d) => d.partnerId === delivery.partnerId && d.eventId === delivery.eventId,
    );
    if (existing) return { created: false as const, existing };
    this.seed(delivery);
    return { created: true as const };
  }

  async get(deliveryId: DeliveryId) {
    return this.deliveries.get(deliveryId);
  }

  async getByEvent(partnerId: PartnerId, eventId: string) {
    return [...this.deliveries.values()].find((d) => d.partnerId === partnerId && d.eventId === eventId);
  }

  async markQueued(deliveryId: DeliveryId, at: Date) {
    this.update(deliveryId, { queued: true }, at);
  }

  async recordAttempt(delivery: Pick<Delivery, 'deliveryId'>, outcome: AttemptOutcome, at: Date) {
    const current = this.deliveries.get(delivery.deliveryId);
    const { chain, attempt } = outcome.attempt;
    if (current?.status !== 'pending' || current.chain !== chain || current.attemptCount !== attempt - 1) return false;
    const { nextAttemptAt: _previous, ...rest } = current;
    this.deliveries.set(delivery.deliveryId, {
      ...rest,
      status: outcome.status,
      attemptCount: outcome.attempt.attempt,
      ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      ...(outcome.alertStatus ? { alertStatus: outcome.alertStatus } : {}),
      updatedAt: at.toISOString(),
    });
    this.attempts.set(delivery.deliveryId, [...(this.attempts.get(delivery.deliveryId) ?? []), outcome.attempt]);
    return true;
  }

  async claimAlert(deliveryId: DeliveryId, now: Date, leaseUntil: Date) {
    const current = this.deliveries.get(deliveryId);
    const lapsed = current?.alertStatus === 'sending' && (current.alertLeaseUntil ?? '') < now.toISOString();
    if (current?.alertStatus !== 'pending' && !lapsed) return false;
    this.update(deliveryId, { alertStatus: 'sending', alertLeaseUntil: leaseUntil.toISOString() }, now);
    return true;
  }

  async settleAlert(deliveryId: DeliveryId, status: 'sent' | 'no-address' | 'pending', at: Date) {
    if (this.deliveries.get(deliveryId)?.alertStatus !== 'sending')
      throw new Error(`alert of ${deliveryId} is not claimed`);
    this.update(deliveryId, { alertStatus: status }, at);
  }

  async bringForward(delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount' | 'nextAttemptAt'>, at: Date) {
    const current = this.deliveries.get(delivery.deliveryId);
    const unchanged =
      current?.status === 'pending' &&
      current.chain === delivery.chain &&
      current.attemptCount === delivery.attemptCount &&
      current.nextAttemptAt !== undefined &&
      current.nextAttemptAt === delivery.nextAttemptAt &&
      current.heldAt === undefined;
    if (!unchanged) return false;
    this.update(delivery.deliveryId, { nextAttemptAt: at.toISOString() }, at);
    return true;
  }

  async startNewChain(deliveryId: DeliveryId, expectedChain: number, dueAt: Date, at: Date) {
    const current = this.deliveries.get(deliveryId);
    if (current?.chain !== expectedChain) return false;
    const { alertStatus: _alert, alertLeaseUntil: _lease, heldAt: _held, ...rest } = current;
    this.deliveries.set(deliveryId, {
      ...rest,
      chain: expectedChain + 1,
      status: 'pending',
      attemptCount: 0,
      nextAttemptAt: dueAt.toISOString(),
      queued: false,
      updatedAt: at.toISOString(),
    });
    return true;
  }

  async listAttempts(deliveryId: DeliveryId) {
    return [...(this.attempts.get(deliveryId) ?? [])];
  }

  async listByPartner(partnerId: PartnerId, options: { status?: DeliveryStatus; since?: string; limit: number }) {
    return [...this.deliveries.values()]
      .filter((d) => d.partnerId === partnerId && (!options.status || d.status === options.status))
      .filter((d) => !options.since || d.createdAt >= options.since)
      .reverse()
      .slice(0, options.limit);
  }

  async pageByPartner(partnerId: PartnerId, filter: DeliveryFilter, page: { limit: number; startingAfter?: Delivery }) {
    const key = (d: Delivery) => `${d.createdAt}#${d.deliveryId}`;
    const matching = [...this.deliveries.values()]
      .filter((d) => d.partnerId === partnerId)
      .filter((d) => (!filter.status || d.status === filter.status) && (!filter.event || d.event === filter.event))
      .filter(
        (d) =>
          (filter.orderId === undefined || d.orderId === filter.orderId) &&
          (!filter.since || d.createdAt >= filter.since),
      )
      .filter((d) => !page.startingAfter || key(d) < key(page.startingAfter))
      .sort((a, b) => key(b).localeCompare(key(a)));
    return {
      deliveries: matching.slice(0, page.limit).map((d) => ({ ...d, attempts: this.attempts.get(d.deliveryId) ?? [] })),
      hasMore: matching.length > page.limit,
    };
  }

  async hold(delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount'>, at: Date) {
    const current = this.deliveries.get(delivery.deliveryId);
    if (
      current?.status !== 'pending' ||
      current.chain !== delivery.chain ||
      current.attemptCount !== delivery.attemptCount
    )
      return false;
    this.update(delivery.deliveryId, { heldAt: at.toISOString() }, at);
    return true;
  }

  async release(deliveryId: DeliveryId, chain: number, dueAt: Date, at: Date) {
    const current = this.deliveries.get(deliveryId);
    if (!current?.heldAt || current.status !== 'pending' || current.chain !== chain) return false;
    const { heldAt: _held, ...rest } = current;
    this.deliveries.set(deliveryId, { ...rest, nextAttemptAt: dueAt.toISOString(), updatedAt: at.toISOString() });
    return true;
  }

  async cancel(deliveryId: DeliveryId, at: Date) {
    const current = this.deliveries.get(deliveryId);
    if (current?.status !== 'pending') return false;
    const { heldAt: _held, nextAttemptAt: _next, ...rest } = current;
    this.deliveries.set(deliveryId, { ...rest, status: 'cancelled', updatedAt: at.toISOString() });
    return true;
  }

  private update(deliveryId: DeliveryId, change: Partial<Delivery>, at: Date) {
    const current = this.deliveries.get(deliveryId);
    if (!current) throw new Error(`no delivery ${deliveryId}`);
    this.deliveries.set(deliveryId, { ...current, ...change, updatedAt: at.toISOString() });
  }
}
