import type { PartnerId } from '../domain/partners/partner';
import type { Delivery, DeliveryId } from './delivery';
import type { WebhookEndpoint } from './webhook-endpoint';

/** What a queue batch knows before it sends anything. */
export interface DeliveryBatchSnapshot {
  readonly deliveries: ReadonlyMap<DeliveryId, Delivery>;
  /** The endpoint of each partner asked for; a partner without one is absent. */
  readonly endpoints: ReadonlyMap<PartnerId, WebhookEndpoint>;
}

/**
 * Reads a batch's deliveries and its partners' endpoints together, consistently: on
 * DynamoDB one BatchGetItem across both tables, so a batch makes one read before its POSTs.
 */
export interface DeliveryBatchReader {
  read(deliveryIds: readonly DeliveryId[], partnerIds: readonly PartnerId[]): Promise<DeliveryBatchSnapshot>;
}
