import type { Clock } from '../domain/clock';
import type { Delivery, DeliveryMessage } from './delivery';
import type { DeliveryRepository } from './delivery-repository';
import type { MessageQueue } from './message-queue';

/**
 * Sends a delivery again from its first attempt, with the same id and body: a new chain
 * of attempts on the usual retry ladder, its first attempt queued now. Messages of the
 * previous chain are ignored from then on. The operator's `deliveries replay` and the
 * partner's `POST /v1/webhooks/deliveries/{delivery_id}/retry` both go through here.
 */
export class DeliveryReplay {
  constructor(
    private readonly deliveries: Pick<DeliveryRepository, 'get' | 'startNewChain'>,
    private readonly queue: MessageQueue<DeliveryMessage>,
    private readonly clock: Clock,
  ) {}

  /** The delivery on its new chain; undefined when it changed since it was read (another replay started first). */
  async start(delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain'>): Promise<Delivery | undefined> {
    const now = this.clock.now();
    if (!(await this.deliveries.startNewChain(delivery.deliveryId, delivery.chain, now, now))) return undefined;
    const chain = delivery.chain + 1;
    await this.queue.send({ deliveryId: delivery.deliveryId, partnerId: delivery.partnerId, chain, attempt: 1, dueAt: now.toISOString() }, 0);
    return (await this.deliveries.get(delivery.deliveryId)) as Delivery;
  }
}
