import { ConcurrentModification } from '../domain/errors';
import type { Clock } from '../domain/clock';
import type { Logger } from '../domain/logger';
import type { PartnerId } from '../domain/partners/partner';
import type { Delivery, DeliveryId, DeliveryMessage } from './delivery';
import { deliveryIdFor } from './delivery-id';
import type { DeliveryRepository } from './delivery-repository';
import type { MessageQueue } from '../domain/events/message-queue';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import type { WebhookEndpointRepository } from './webhook-endpoint';
import type { InvoiceRepository } from '../domain/billing/invoice-repository';
import { toInvoicePayload } from '../domain/events/invoice-events';

export type FanoutOutcome =
  | { readonly outcome: 'queued'; readonly deliveryId: DeliveryId }
  | { readonly outcome: 'duplicate'; readonly deliveryId: DeliveryId }
  | { readonly outcome: 'no-endpoint' | 'not-subscribed' };

/** The exact bytes every attempt of a delivery sends (contract: Events, request shape). */
const webhookBody = (event: OrderEventMessage, data: Record<string, unknown>): string =>
  JSON.stringify({ event: event.event, timestamp: event.timestamp, data });

/**
 * Turns one order event into a delivery for the owning partner's endpoint, when it is
 * subscribed to the kind, and queues its first attempt. The delivery's id derives from
 * partner and event id (`deliveryIdFor`), so a publisher can tell it before this runs. Safe to run twice for the same
 * event: the delivery is created once (conditional write on the event), and its first
 * attempt is queued again only if the earlier run stopped before queueing it.
 *
 * Two copies of one event can run at the same moment (both in one SQS batch). The copy
 * that finds the delivery created but not yet queued cannot tell a creator that is still
 * running from one that crashed; on its first receipt it defers to SQS (the creator
 * queues it, and the copy comes back as a duplicate), and only a redelivered copy queues
 * it. So a duplicate event never puts two first attempts on the queue.
 */
export class WebhookFanout {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly invoices: Pick<InvoiceRepository, 'getByOrder'>,
    private readonly queue: MessageQueue<DeliveryMessage>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async fanOut(
    event: OrderEventMessage,
    receipt: { readonly redelivered: boolean } = { redelivered: true },
  ): Promise<FanoutOutcome> {
    const partnerId = event.partnerId as PartnerId;
    const { requestId, organizationId } = event;
    const log = { eventId: event.eventId, partnerId, event: event.event };
    const endpoint = await this.endpoints.get(partnerId);
    if (!endpoint || !endpoint.events.includes(event.event)) {
      const outcome = endpoint ? 'not-subscribed' : 'no-endpoint';
      this.logger.info({ msg: 'order event not delivered', outcome, ...log });
      return { outcome };
    }

    const now = this.clock.now().toISOString();
    const dataOrderId = event.data.order_id;
    const orderId = event.orderId ?? (typeof dataOrderId === 'string' && dataOrderId !== '' ? dataOrderId : undefined);
    const candidate: Delivery = {
      deliveryId: deliveryIdFor(partnerId, event.eventId),
      partnerId,
      eventId: event.eventId,
      event: event.event,
      ...(orderId ? { orderId } : {}),
      body: webhookBody(event, await this.dataWithInvoice(event, orderId)),
      requestId,
      organizationId,
      occurredAt: event.timestamp,
      status: 'pending',
      chain: 1,
      attemptCount: 0,
      nextAttemptAt: now,
      queued: false,
      createdAt: now,
      updatedAt: now,
    };
    const stored = await this.deliveries.createForEvent(candidate);
    const delivery = stored.created ? candidate : stored.existing;
    const firstAttemptNotQueued = !delivery.queued && delivery.chain === 1 && delivery.attemptCount === 0;
    if (!stored.created && firstAttemptNotQueued && !receipt.redelivered) {
      throw new ConcurrentModification(
        `delivery ${delivery.deliveryId} is being queued by another fan-out of the same event`,
      );
    }
    if (!stored.created && !firstAttemptNotQueued) {
      this.logger.info({ msg: 'duplicate order event', outcome: 'duplicate', deliveryId: delivery.deliveryId, ...log });
      return { outcome: 'duplicate', deliveryId: delivery.deliveryId };
    }

    const firstAttempt = {
      deliveryId: delivery.deliveryId,
      partnerId,
      chain: 1,
      attempt: 1,
      dueAt: delivery.nextAttemptAt ?? now,
    };
    await this.queue.send(firstAttempt, 0);
    await this.deliveries.markQueued(delivery.deliveryId, this.clock.now());
    this.logger.info({ msg: 'webhook delivery queued', outcome: 'queued', deliveryId: delivery.deliveryId, ...log });
    return { outcome: 'queued', deliveryId: delivery.deliveryId };
  }

  /**
   * An order.* payload carries the order's invoice as it is when the delivery is built
   * (null before it is issued): read beside the order, not copied onto it, so the outbox
   * stays the order's own change and one get in the order's partition answers.
   */
  private async dataWithInvoice(event: OrderEventMessage, orderId: string | undefined) {
    if (!event.event.startsWith('order.') || orderId === undefined) return event.data;
    const invoice = await this.invoices.getByOrder(orderId);
    return { ...event.data, invoice: invoice ? toInvoicePayload(invoice) : null };
  }
}
