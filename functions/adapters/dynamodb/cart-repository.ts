import type { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ProductId } from '../../domain/catalog/product';
import type { Cart, CartLine, CartRepository, LineAddition } from '../../domain/orders/cart';
import type { ProfileId } from '../../domain/organizations/organization';
import type { RememberedSalesTax, SalesTaxMemory } from '../../domain/tax/sales-tax-quotes';
import { queryAll } from './query-all';

/** Key shapes of the carts table: one partition per profile, one item per line. */
export const cartKeys = {
  partition: (profileId: string) => `CART#${profileId}`,
  line: (profileId: string, productId: string) => ({ pk: `CART#${profileId}`, sk: `LINE#${productId}` }),
  /** The request the cart resubmits (`Edit and resubmit`), beside its lines so one query reads both. */
  resubmits: (profileId: string) => ({ pk: `CART#${profileId}`, sk: 'RESUBMIT' }),
  /** A Stripe Tax calculation of the cart (or items) for one address, by the key of what was calculated; swept by TTL. */
  salesTax: (profileId: string, key: string) => ({ pk: `CART#${profileId}`, sk: `TAX#${key}` }),
};

/** An untouched cart is swept after this long. */
const CART_RETENTION_SECONDS = 90 * 24 * 3600;

/** A whole cart line as stored, for writes that put lines inside another transaction (a withdrawn approval request's). */
export const cartLineItem = (profileId: string, line: CartLine, at: Date) => ({
  ...cartKeys.line(profileId, line.productId),
  productId: line.productId,
  quantity: line.quantity,
  addedAt: line.addedAt,
  ttl: Math.floor(at.getTime() / 1000) + CART_RETENTION_SECONDS,
});

/** The marker saying which request the cart resubmits. */
export const resubmitMarkerItem = (profileId: string, requestId: string, at: Date) => ({
  ...cartKeys.resubmits(profileId),
  requestId,
  ttl: Math.floor(at.getTime() / 1000) + CART_RETENTION_SECONDS,
});

export class DynamoCartRepository implements CartRepository, SalesTaxMemory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(profileId: ProfileId): Promise<Cart> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': cartKeys.partition(profileId) },
      ConsistentRead: true,
    });
    const marker = items.find((item) => item.sk === 'RESUBMIT');
    const lines = items
      .filter((item) => String(item.sk).startsWith('LINE#'))
      .map((item): CartLine => ({
        productId: item.productId as ProductId,
        quantity: item.quantity as number,
        addedAt: item.addedAt as string,
      }))
      .sort((a, b) => (a.addedAt < b.addedAt ? -1 : a.addedAt > b.addedAt ? 1 : a.productId < b.productId ? -1 : 1));
    return { profileId, lines, ...(marker ? { resubmits: marker.requestId as string } : {}) };
  }

  async setQuantity(profileId: ProfileId, productId: ProductId, quantity: number, at: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: cartKeys.line(profileId, productId),
        UpdateExpression:
          'SET productId = :productId, quantity = :quantity, addedAt = if_not_exists(addedAt, :at), #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':productId': productId,
          ':quantity': quantity,
          ':at': at.toISOString(),
          ':ttl': Math.floor(at.getTime() / 1000) + CART_RETENTION_SECONDS,
        },
      }),
    );
  }

  /** One UpdateItem: `ADD` on the quantity, on condition that the line has room for it. */
  async addToLine(
    profileId: ProfileId,
    productId: ProductId,
    added: number,
    max: number,
    at: Date,
  ): Promise<LineAddition> {
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: cartKeys.line(profileId, productId),
          UpdateExpression:
            'SET productId = :productId, addedAt = if_not_exists(addedAt, :at), #ttl = :ttl ADD quantity :added',
          ConditionExpression: 'attribute_not_exists(quantity) OR quantity <= :room',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':productId': productId,
            ':at': at.toISOString(),
            ':ttl': Math.floor(at.getTime() / 1000) + CART_RETENTION_SECONDS,
            ':added': added,
            ':room': max - added,
          },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { added: true, quantity: Number(result.Attributes?.quantity ?? added) };
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      // The refused item comes back marshalled: the document client does not convert errors.
      const current = (error as ConditionalCheckFailedException).Item?.quantity?.N;
      return { added: false, wouldBe: Number(current ?? 0) + added };
    }
  }

  async remove(profileId: ProfileId, productId: ProductId): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: cartKeys.line(profileId, productId) }));
  }

  async clear(profileId: ProfileId): Promise<void> {
    const cart = await this.get(profileId);
    await Promise.all([
      ...cart.lines.map((line) => this.remove(profileId, line.productId)),
      this.db.send(new DeleteCommand({ TableName: this.table, Key: cartKeys.resubmits(profileId) })),
    ]);
  }

  async rememberedSalesTax(profileId: ProfileId, key: string): Promise<RememberedSalesTax | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: cartKeys.salesTax(profileId, key), ConsistentRead: true }),
    );
    return Item ? { calculation: Item.calculation, reuseUntil: Item.reuseUntil } : undefined;
  }

  async forgetSalesTax(profileId: ProfileId, key: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: cartKeys.salesTax(profileId, key) }));
  }

  async rememberSalesTax(profileId: ProfileId, key: string, remembered: RememberedSalesTax): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...cartKeys.salesTax(profileId, key),
          calculation: remembered.calculation,
          reuseUntil: remembered.reuseUntil,
          ttl: Math.ceil(Date.parse(remembered.reuseUntil) / 1000),
        },
      }),
    );
  }
}
