import type { Clock } from '../../domain/clock';
import type { MessageQueue } from '../../domain/events/message-queue';
import type { Logger } from '../../domain/logger';
import type { Delivery, DeliveryMessage } from '../delivery';
import { hopDelaySeconds, MAX_SQS_DELAY_SECONDS } from '../retry-schedule';

/** How one message of the deliveries queue ended; each has its own step in the dispatcher's path. */
export type DispatchOutcome =
  'delivered' | 'retry-scheduled' | 'failed' | 'not-due' | 'held' | 'deferred' | 'moved' | 'stale' | 'unknown-delivery';

/** The message has nothing left to do: handled before, overtaken by a replay, or beaten by another handler. */
export function skipped(logger: Logger, log: Record<string, unknown>, reason: string): DispatchOutcome {
  logger.info({ msg: 'webhook message skipped', outcome: 'stale', reason, ...log });
  return 'stale';
}

/** Queues the delivery's next attempt, due at `dueAt` (a longer wait hops through the queue). */
export async function queueAttempt(
  { queue, clock }: { readonly queue: MessageQueue<DeliveryMessage>; readonly clock: Clock },
  delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain'>,
  attempt: number,
  dueAt: Date,
): Promise<void> {
  await queue.send(
    {
      deliveryId: delivery.deliveryId,
      partnerId: delivery.partnerId,
      chain: delivery.chain,
      attempt,
      dueAt: dueAt.toISOString(),
    },
    Math.min(MAX_SQS_DELAY_SECONDS, hopDelaySeconds(dueAt, clock.now())),
  );
}
