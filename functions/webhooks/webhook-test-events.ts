import type { Clock } from '../domain/clock';
import { WebhookEndpointNotConfigured, WebhookEventNotSubscribed } from '../domain/errors';
import type { OrganizationRepository } from '../domain/organizations/organization-repository';
import type { PartnerId } from '../domain/partners/partner';
import type { DeliveryId } from './delivery';
import { deliveryIdFor } from './delivery-id';
import type { MessageQueue } from '../domain/events/message-queue';
import type { WebhookEventKind } from '../domain/events/order-event-kinds';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import { PLACEHOLDER_INTERNAL_ORG_ID, sampleWebhookEvent } from './sample-webhook-event';
import type { WebhookEndpointRepository } from './webhook-endpoint';

/**
 * `POST /v1/webhooks/test` (sandbox): puts a sample event of one kind (any an endpoint can
 * subscribe to: order, approval or invoice) on the order-events queue, from where the fan-out and the dispatcher deliver it like any
 * other. The delivery id is derived from partner and event id, so it is answered
 * before the fan-out runs. A partner without an endpoint, or whose endpoint does not take
 * the kind, is refused here: the fan-out would drop the event and the answered id would
 * never arrive.
 */
export class WebhookTestEvents {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly organizations: OrganizationRepository,
    private readonly queue: MessageQueue<OrderEventMessage>,
    private readonly clock: Clock,
  ) {}

  async send(partnerId: PartnerId, kind: WebhookEventKind): Promise<{ deliveryId: DeliveryId }> {
    const [endpoint, organizations] = await Promise.all([
      this.endpoints.get(partnerId),
      this.organizations.listOrganizations(partnerId),
    ]);
    if (!endpoint)
      throw new WebhookEndpointNotConfigured('You have no webhook endpoint; ask the operator to set one up');
    if (!endpoint.events.includes(kind)) throw new WebhookEventNotSubscribed(kind, endpoint.events);
    // The oldest organization, so repeated tests name the same one.
    const [oldest] = [...organizations].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.internalOrgId.localeCompare(b.internalOrgId),
    );
    const event = sampleWebhookEvent({
      partnerId,
      kind,
      internalOrgId: oldest?.internalOrgId ?? PLACEHOLDER_INTERNAL_ORG_ID,
      now: this.clock.now(),
    });
    await this.queue.send(event, 0);
    return { deliveryId: deliveryIdFor(partnerId, event.eventId) };
  }
}
