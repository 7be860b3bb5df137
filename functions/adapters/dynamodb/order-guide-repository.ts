import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductId } from '../../domain/catalog/product';
import { OrderGuideChanged } from '../../domain/errors';
import type { OrderGuideLine, OrderGuideRepository } from '../../domain/orders/order-guide';
import type { OrganizationId } from '../../domain/organizations/organization';
import { queryAll } from './query-all';

/**
 * Key shapes of order guides, kept in the carts table (a guide is the organization's
 * standing cart): one partition per organization, one item per line, no expiry.
 */
const orderGuideKeys = {
  partition: (organizationId: string) => `GUIDE#${organizationId}`,
  line: (organizationId: string, productId: string) => ({ pk: `GUIDE#${organizationId}`, sk: `LINE#${productId}` }),
};

const isConditionFailure = (error: unknown): boolean => (error as Error).name === 'ConditionalCheckFailedException';

export class DynamoOrderGuideRepository implements OrderGuideRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(organizationId: OrganizationId): Promise<OrderGuideLine[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': orderGuideKeys.partition(organizationId) },
      ConsistentRead: true,
    });
    return items
      .map((item): OrderGuideLine => ({
        productId: item.productId as ProductId,
        quantity: item.quantity as number,
        version: item.version as number,
        addedAt: item.addedAt as string,
      }))
      .sort((a, b) => (a.addedAt < b.addedAt ? -1 : a.addedAt > b.addedAt ? 1 : a.productId < b.productId ? -1 : 1));
  }

  async upsert(organizationId: OrganizationId, productId: ProductId, quantity: number, at: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: orderGuideKeys.line(organizationId, productId),
        UpdateExpression:
          'SET productId = :productId, quantity = :quantity, addedAt = if_not_exists(addedAt, :at), updatedAt = :at ADD version :one',
        ExpressionAttributeValues: {
          ':productId': productId,
          ':quantity': quantity,
          ':at': at.toISOString(),
          ':one': 1,
        },
      }),
    );
  }

  async setQuantity(
    organizationId: OrganizationId,
    productId: ProductId,
    quantity: number,
    expectedVersion: number,
    at: Date,
  ): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: orderGuideKeys.line(organizationId, productId),
          UpdateExpression: 'SET quantity = :quantity, updatedAt = :at ADD version :one',
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: {
            ':quantity': quantity,
            ':at': at.toISOString(),
            ':one': 1,
            ':expected': expectedVersion,
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new OrderGuideChanged(productId, { cause: error });
      throw error;
    }
  }

  async remove(organizationId: OrganizationId, productId: ProductId, expectedVersion: number): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: orderGuideKeys.line(organizationId, productId),
          ConditionExpression: 'attribute_not_exists(pk) OR version = :expected',
          ExpressionAttributeValues: { ':expected': expectedVersion },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new OrderGuideChanged(productId, { cause: error });
      throw error;
    }
  }
}
