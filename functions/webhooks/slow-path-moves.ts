import type { Delivery } from './delivery';

/** How an attempt is named on its delivery: a replay's chain starts its attempts at 1 again. */
export const slowPathKey = (chain: number, attempt: number): string => `${chain}:${attempt}`;

/**
 * The hand-over of one attempt from the fast path to the slow one (docs/webhooks.md, "Fast and
 * slow paths"), as conditional writes on the delivery: the move is written before the slow
 * path's message is queued, and the slow path claims the send before its POST, so a consumer
 * that crashes anywhere in between leaves the attempt for redelivery and never sends it twice.
 */
export interface SlowPathMoves {
  /**
   * Marks attempt `attempt` of the delivery's chain as the slow path's (true also when it was
   * already); false when the delivery moved on (the attempt was recorded, or a replay began).
   */
  move(delivery: Pick<Delivery, 'deliveryId' | 'chain'>, attempt: number): Promise<boolean>;
  /**
   * Claims the POST of a moved attempt until `leaseUntil`; false when another consumer holds
   * the claim, or the attempt is no longer the delivery's next. A crashed holder's claim lapses.
   */
  claimSend(
    delivery: Pick<Delivery, 'deliveryId' | 'chain'>,
    attempt: number,
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean>;
}
