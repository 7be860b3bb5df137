import type { Clock } from '../domain/clock';
import type { Delivery, DeliveryMessage } from './delivery';
import type { DeliveryRepository } from './delivery-repository';
import type { MessageQueue } from '../domain/events/message-queue';

/** Far longer than a replay's write and its SendMessage take. */
export const UNQUEUED_GRACE_MS = 30_000;

/**
 * Sends a delivery again from its first attempt, with the same id and body: a new chain
 * of attempts on the usual retry ladder, its first attempt queued now. Messages of the
 * previous chain are ignored from then on. The operator's `deliveries replay` and the
 * partner's `POST /v1/webhooks/deliveries/{delivery_id}/retry` both go through here.
 */
export class DeliveryReplay {
  constructor(
    private readonly deliveries: Pick<DeliveryRepository, 'get' | 'startNewChain' | 'markQueued' | 'bringForward'>,
    private readonly queue: MessageQueue<DeliveryMessage>,
    private readonly clock: Clock,
  ) {}

  /** The delivery on its new chain; undefined when it changed since it was read (another replay started first). */
  async start(delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain'>): Promise<Delivery | undefined> {
    const now = this.clock.now();
    if (!(await this.deliveries.startNewChain(delivery.deliveryId, delivery.chain, now, now))) return undefined;
    return this.queueNextAttempt({ ...delivery, chain: delivery.chain + 1, attemptCount: 0 }, now);
  }

  /**
   * Whether a pending delivery waits for its next attempt on the ladder (a failed attempt
   * was recorded and the next is not due yet), rather than having one in flight.
   */
  isWaiting(delivery: Pick<Delivery, 'status' | 'heldAt' | 'attemptCount' | 'nextAttemptAt'>): boolean {
    return (
      delivery.status === 'pending' &&
      !delivery.heldAt &&
      delivery.attemptCount > 0 &&
      delivery.nextAttemptAt !== undefined &&
      Date.parse(delivery.nextAttemptAt) > this.clock.now().getTime()
    );
  }

  /**
   * Makes a waiting delivery's next attempt now, on the same chain and ladder: the attempt
   * keeps its number, so a failure waits the ladder's next step, and the message queued
   * for its old time finds it made and is dropped. Undefined when the delivery changed
   * since it was read (the attempt came due, or another retry brought it forward first).
   */
  async sendNow(
    delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain' | 'attemptCount' | 'nextAttemptAt'>,
  ): Promise<Delivery | undefined> {
    const now = this.clock.now();
    if (!(await this.deliveries.bringForward(delivery, now))) return undefined;
    const { deliveryId, partnerId, chain } = delivery;
    await this.queue.send(
      { deliveryId, partnerId, chain, attempt: delivery.attemptCount + 1, dueAt: now.toISOString() },
      0,
    );
    return (await this.deliveries.get(deliveryId)) as Delivery;
  }

  /**
   * Whether a pending delivery has no message on the queue: a replay that stopped between
   * its write and its message leaves it so (the new chain is written `queued: false` and
   * marked once its first attempt is sent), and nothing else would ever send it. Only
   * once `UNQUEUED_GRACE_MS` have passed with no attempt: a replay still between its two
   * steps (a double click) is in flight, not lost.
   */
  isUnqueued(delivery: Pick<Delivery, 'status' | 'queued' | 'heldAt' | 'attemptCount' | 'updatedAt'>): boolean {
    const quiet = this.clock.now().getTime() - Date.parse(delivery.updatedAt) >= UNQUEUED_GRACE_MS;
    return (
      delivery.status === 'pending' && !delivery.queued && !delivery.heldAt && delivery.attemptCount === 0 && quiet
    );
  }

  /**
   * Queues the next attempt of a pending delivery whose message was never sent. If it was
   * sent after all, the copy is harmless: attempts are recorded by conditional writes on
   * (chain, attempt), so only one of the two takes effect.
   */
  async requeue(delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain' | 'attemptCount'>): Promise<Delivery> {
    return this.queueNextAttempt(delivery, this.clock.now());
  }

  private async queueNextAttempt(
    delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain' | 'attemptCount'>,
    now: Date,
  ): Promise<Delivery> {
    const { deliveryId, partnerId, chain } = delivery;
    await this.queue.send(
      { deliveryId, partnerId, chain, attempt: delivery.attemptCount + 1, dueAt: now.toISOString() },
      0,
    );
    await this.deliveries.markQueued(deliveryId, now);
    return (await this.deliveries.get(deliveryId)) as Delivery;
  }
}
