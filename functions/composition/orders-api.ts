import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import type { CatalogRepository } from '../domain/catalog/catalog-repository';
import { OrderService } from '../domain/orders/order-service';
import { SandboxOrders } from '../domain/orders/sandbox-orders';
import type { OrganizationRepository } from '../domain/organizations/organization-repository';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import { type DynamoTables, cartRepository, catalogRepository, orderRepository, organizationRepository } from './repositories';
import { traced } from '../adapters/observability/tracing';

export interface OrdersApiDependencies extends ApiDependencies {
  readonly catalog: CatalogRepository;
  readonly organizations: OrganizationRepository;
  readonly orderService: OrderService;
  /** Used by the sandbox routes only, which production does not have. */
  readonly sandboxOrders: SandboxOrders;
}

export function composeOrdersApi(base: BaseDependencies, db: DynamoDBDocumentClient): OrdersApiDependencies {
  const tables: DynamoTables = { config: base.config, db };
  const catalog = catalogRepository(tables);
  const organizations = organizationRepository(tables);
  // The API orders explicit lines, never a cart: the carts repository is built but never
  // called, and the function has no access to that table.
  const orderService = new OrderService({
    orders: orderRepository(tables, base.clock),
    carts: cartRepository(tables),
    catalog,
    clock: base.clock,
    metrics: base.metrics,
  });
  return {
    ...composeApiAccess(base, tables),
    catalog,
    organizations,
    orderService,
    sandboxOrders: new SandboxOrders(organizations, catalog, orderService),
  };
}

export const ordersApiFromEnvironment = lambdaRoot((config) => composeOrdersApi(createLambdaBase(config), createDocumentClient(undefined, traced)));
