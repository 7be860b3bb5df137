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

/** The order events billing acts on: a shipment is invoiced, a refund credited. */
const INVOICED_EVENTS: ReadonlySet<string> = new Set(['order.shipped', 'order.refunded']);

/**
 * Carries committed outbox items to the order-events queue, and shipments and refunds to
 * the invoicing queue as well. At least once: a record relayed twice carries the same
 * event id; the fan-out creates one delivery per id, and invoicing is idempotent per order.
 */
export class OrderOutboxRelay {
  constructor(
    private readonly queue: MessageQueue<OrderEventMessage>,
    private readonly invoicing: MessageQueue<OrderEventMessage>,
  ) {}

  async relay(messageText: string): Promise<OrderEventMessage> {
    const message = OrderEventMessage.parse(JSON.parse(messageText));
    await this.queue.send(message, 0);
    if (INVOICED_EVENTS.has(message.event)) await this.invoicing.send(message, 0);
    return message;
  }
}
