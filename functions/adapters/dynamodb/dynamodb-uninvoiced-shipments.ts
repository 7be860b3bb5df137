import { DeleteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { UninvoicedShipment, UninvoicedShipments } from '../../domain/billing/uninvoiced-shipments';
import type { OrderId } from '../../domain/orders/order';
import { orderKeys, UNINVOICED_SHIPMENTS_PARTITION } from './dynamodb-order-items';

/**
 * The markers of shipped, uninvoiced orders, read from their own gsi1 partition: the
 * sweep's read costs what is waiting, never the size of the orders table.
 */
export class DynamoUninvoicedShipments implements UninvoicedShipments {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async shippedBefore(cutoff: string, limit: number): Promise<UninvoicedShipment[]> {
    const found: UninvoicedShipment[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      // gsi1sk is `shippedAt#orderId`: every key of a shipment before the cutoff sorts below it.
      const { Items = [], LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
          ExpressionAttributeValues: { ':pk': UNINVOICED_SHIPMENTS_PARTITION, ':cutoff': cutoff },
          Limit: limit - found.length,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(
        ...Items.map((item) => ({ orderId: String(item.orderId) as OrderId, shippedAt: String(item.shippedAt) })),
      );
      startKey = LastEvaluatedKey;
    } while (startKey && found.length < limit);
    return found;
  }

  async settle(orderId: OrderId): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: orderKeys.uninvoiced(orderId) }));
  }
}
