import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoCartRepository } from '../adapters/dynamodb/cart-repository';
import { DynamoCatalogRepository } from '../adapters/dynamodb/catalog-repository';
import { DynamoOrderRepository } from '../adapters/dynamodb/order-repository';
import type { CatalogRepository } from '../domain/catalog/catalog-repository';
import { CartService } from '../domain/orders/cart-service';
import { OrderService } from '../domain/orders/order-service';
import { type BaseDependencies, tablesOf } from './base';

/** The procurement module's services: what the embed host and the partner order API both build. */
export interface CommerceDependencies {
  readonly catalog: CatalogRepository;
  readonly cartService: CartService;
  readonly orderService: OrderService;
}

export function composeCommerce(base: BaseDependencies, db: DynamoDBDocumentClient): CommerceDependencies {
  const table = tablesOf(base.config);
  const catalog = new DynamoCatalogRepository(db, table('catalog'));
  const carts = new DynamoCartRepository(db, table('carts'));
  const orders = new DynamoOrderRepository(db, { orders: table('orders'), carts: table('carts') }, base.clock);
  return {
    catalog,
    cartService: new CartService({ carts, catalog, clock: base.clock }),
    orderService: new OrderService({ orders, carts, catalog, clock: base.clock }),
  };
}
