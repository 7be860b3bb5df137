import type { PartnerId } from '../../../functions/domain/partners/partner';
import type { Delivery, DeliveryId } from '../../../functions/webhooks/delivery';
import type { DeliveryBatchReader } from '../../../functions/webhooks/delivery-batch-reader';
import type { DeliveryRepository } from '../../../functions/webhooks/delivery-repository';
import type { WebhookEndpoint, WebhookEndpointRepository } from '../../../functions/webhooks/webhook-endpoint';

/** A DeliveryBatchReader made of the repositories' single reads, for dispatchers built on fakes. */
export class DeliveryBatchReaderOverPorts implements DeliveryBatchReader {
  constructor(
    private readonly deliveries: Pick<DeliveryRepository, 'get'>,
    private readonly endpoints: Pick<WebhookEndpointRepository, 'get'>,
  ) {}

  async read(deliveryIds: readonly DeliveryId[], partnerIds: readonly PartnerId[]) {
    const deliveries = await Promise.all(deliveryIds.map((id) => this.deliveries.get(id)));
    const endpoints = await Promise.all(partnerIds.map((id) => this.endpoints.get(id)));
    return {
      deliveries: new Map(deliveries.filter((d): d is Delivery => d !== undefined).map((d) => [d.deliveryId, d])),
      endpoints: new Map(endpoints.filter((e): e is WebhookEndpoint => e !== undefined).map((e) => [e.partnerId, e])),
    };
  }
}
