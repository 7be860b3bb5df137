import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PartnerId } from '../../domain/partners/partner';
import type { DeliveryId } from '../../webhooks/delivery';
import type { DeliveryBatchReader, DeliveryBatchSnapshot } from '../../webhooks/delivery-batch-reader';
import { batchGetTables } from './batch-get-all';
import { deliveryFromItem, webhookKeys } from './dynamodb-delivery-items';
import { partnerKeys } from './dynamodb-partner-repository';
import { endpointFromItem } from './dynamodb-webhook-endpoint-items';

/** A batch's deliveries (webhooks table) and endpoints (partners table) in one consistent BatchGetItem. */
export class DynamoDeliveryBatchReader implements DeliveryBatchReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: { readonly webhooks: string; readonly partners: string },
  ) {}

  async read(deliveryIds: readonly DeliveryId[], partnerIds: readonly PartnerId[]): Promise<DeliveryBatchSnapshot> {
    const { webhooks, partners } = this.tables;
    const items = await batchGetTables(this.db, {
      [webhooks]: deliveryIds.map(webhookKeys.delivery),
      [partners]: partnerIds.map(partnerKeys.webhookEndpoint),
    });
    const deliveries = (items[webhooks] ?? []).map(deliveryFromItem);
    const endpoints = (items[partners] ?? []).map(endpointFromItem);
    return {
      deliveries: new Map(deliveries.map((delivery) => [delivery.deliveryId, delivery])),
      endpoints: new Map(endpoints.map((endpoint) => [endpoint.partnerId, endpoint])),
    };
  }
}
