import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CatalogFilter, CatalogRepository } from '../../domain/catalog/catalog-repository';
import { inCatalogOrder, matchesCatalogFilter } from '../../domain/catalog/catalog-listing';
import type { Product, ProductId } from '../../domain/catalog/product';
import { batchGetAll } from './batch-get-all';
import { queryAll } from './query-all';

/**
 * Key shapes of the catalog table: the whole catalog is one partition, so a listing is a
 * single Query (a supplies catalog is hundreds of products, not millions).
 */
export const catalogKeys = {
  partition: 'CATALOG',
  product: (productId: string) => ({ pk: 'CATALOG', sk: `PRODUCT#${productId}` }),
};

/** DynamoDB's limit on items per TransactWriteItems. */
const ITEMS_PER_TRANSACTION = 100;

const toProduct = (item: Record<string, unknown>): Product => {
  const { pk: _pk, sk: _sk, ...product } = item;
  return product as unknown as Product;
};

export class DynamoCatalogRepository implements CatalogRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * All or nothing up to 100 products (one transaction); a larger import is written in
   * transactions of 100, and since every write is an upsert, running it again completes it.
   */
  async upsertMany(products: readonly Product[]): Promise<void> {
    for (let start = 0; start < products.length; start += ITEMS_PER_TRANSACTION) {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: products.slice(start, start + ITEMS_PER_TRANSACTION).map((product) => ({
            Put: { TableName: this.table, Item: { ...catalogKeys.product(product.productId), ...product } },
          })),
        }),
      );
    }
  }

  async listAll(): Promise<Product[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': catalogKeys.partition },
    });
    return inCatalogOrder(items.map(toProduct));
  }

  async listActive(filter?: CatalogFilter): Promise<Product[]> {
    return (await this.listAll()).filter((product) => product.active && matchesCatalogFilter(product, filter));
  }

  async get(productIds: readonly ProductId[]): Promise<Map<ProductId, Product>> {
    const unique = [...new Set(productIds)];
    const items = await batchGetAll(
      this.db,
      this.table,
      unique.map((id) => catalogKeys.product(id)),
    );
    return new Map(items.map(toProduct).map((product) => [product.productId, product]));
  }
}
