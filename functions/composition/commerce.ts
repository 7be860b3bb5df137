import type { CatalogRepository } from '../domain/catalog/catalog-repository';
import { CartService } from '../domain/orders/cart-service';
import { OrderService } from '../domain/orders/order-service';
import type { BaseDependencies } from './base';
import type { DynamoRepositories } from './repositories';

/** The procurement module's services: what the embed host and the partner order API both build. */
export interface CommerceDependencies {
  readonly catalog: CatalogRepository;
  readonly cartService: CartService;
  readonly orderService: OrderService;
}

export function composeCommerce(base: BaseDependencies, repositories: DynamoRepositories): CommerceDependencies {
  const catalog = repositories.catalog();
  const carts = repositories.carts();
  return {
    catalog,
    cartService: new CartService({ carts, catalog, clock: base.clock }),
    orderService: new OrderService({ orders: repositories.orders(base.clock), carts, catalog, clock: base.clock }),
  };
}
