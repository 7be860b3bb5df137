import { ApprovalService } from '../domain/approvals/approval-service';
import type { CatalogRepository } from '../domain/catalog/catalog-repository';
import { CartService } from '../domain/orders/cart-service';
import { OrderService } from '../domain/orders/order-service';
import type { BaseDependencies } from './base';
import {
  type DynamoTables,
  approvalRepository,
  cartRepository,
  catalogRepository,
  orderRepository,
  organizationRepository,
} from './repositories';

/** The procurement module's services: what the embed host and the partner order API both build. */
export interface CommerceDependencies {
  readonly catalog: CatalogRepository;
  readonly cartService: CartService;
  readonly orderService: OrderService;
  /** Approval requests of carts above their user's order limit. */
  readonly approvalService: ApprovalService;
}

export function composeCommerce(base: BaseDependencies, tables: DynamoTables): CommerceDependencies {
  const catalog = catalogRepository(tables);
  const carts = cartRepository(tables);
  const orderService = new OrderService({
    orders: orderRepository(tables, base.clock),
    carts,
    catalog,
    clock: base.clock,
    metrics: base.metrics,
  });
  return {
    catalog,
    cartService: new CartService({ carts, catalog, clock: base.clock }),
    orderService,
    approvalService: new ApprovalService({
      approvals: approvalRepository(tables, base.clock),
      orders: orderService,
      organizations: organizationRepository(tables),
      carts,
      catalog,
      clock: base.clock,
      metrics: base.metrics,
    }),
  };
}
