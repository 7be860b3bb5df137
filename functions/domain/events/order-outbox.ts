import type { Clock } from '../clock';
import type { MessageQueue } from './message-queue';
import { OrderEventMessage } from './order-event-message';

/** How long an outbox item stays after its change (the stream carries it within seconds; this only bounds the table). */
const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * The outbox item an order change writes in its own transaction. `message` is the
 * order-events queue message as JSON text, so relaying it needs no knowledge of orders.
 */
export interface OutboxRecord {
  readonly eventId: string;
  readonly message: string;
  /** Epoch seconds after which the item may be swept. */
  readonly expiresAt: number;
}

export const toOutboxRecord = (message: OrderEventMessage, clock: Clock): OutboxRecord => ({
  eventId: message.eventId,
  message: JSON.stringify(message),
  expiresAt: Math.floor(clock.now().getTime() / 1000) + OUTBOX_RETENTION_SECONDS,
});

/**
 * Carries committed outbox items to the order-events queue. At least once: a record
 * relayed twice carries the same event id, and the fan-out creates one delivery per id.
 */
export class OrderOutboxRelay {
  constructor(private readonly queue: MessageQueue<OrderEventMessage>) {}

  async relay(messageText: string): Promise<OrderEventMessage> {
    const message = OrderEventMessage.parse(JSON.parse(messageText));
    await this.queue.send(message, 0);
    return message;
  }
}
