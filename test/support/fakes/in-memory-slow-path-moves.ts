import type { Delivery } from '../../../functions/webhooks/delivery';
import type { DeliveryRepository } from '../../../functions/webhooks/delivery-repository';
import { slowPathKey, type SlowPathMoves } from '../../../functions/webhooks/slow-path-moves';

/** SlowPathMoves over a delivery repository, with the DynamoDB adapter's conditions; its marks kept beside the deliveries. */
export class InMemorySlowPathMoves implements SlowPathMoves {
  readonly moved = new Map<string, string>();
  private readonly claims = new Map<string, { key: string; until: string }>();

  constructor(private readonly deliveries: Pick<DeliveryRepository, 'get'>) {}

  async move(delivery: Pick<Delivery, 'deliveryId' | 'chain'>, attempt: number): Promise<boolean> {
    if (!(await this.waitingFor(delivery, attempt))) return false;
    this.moved.set(delivery.deliveryId, slowPathKey(delivery.chain, attempt));
    return true;
  }

  async claimSend(delivery: Pick<Delivery, 'deliveryId' | 'chain'>, attempt: number, now: Date, leaseUntil: Date) {
    const key = slowPathKey(delivery.chain, attempt);
    if (!(await this.waitingFor(delivery, attempt)) || this.moved.get(delivery.deliveryId) !== key) return false;
    const claim = this.claims.get(delivery.deliveryId);
    if (claim && claim.key === key && claim.until >= now.toISOString()) return false;
    this.claims.set(delivery.deliveryId, { key, until: leaseUntil.toISOString() });
    return true;
  }

  private async waitingFor(delivery: Pick<Delivery, 'deliveryId' | 'chain'>, attempt: number): Promise<boolean> {
    const stored = await this.deliveries.get(delivery.deliveryId as Delivery['deliveryId']);
    return stored?.status === 'pending' && stored.chain === delivery.chain && stored.attemptCount === attempt - 1;
  }
}
