import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { traced } from '../adapters/observability/tracing';
import { ApprovalService } from '../domain/approvals/approval-service';
import { OrderService } from '../domain/orders/order-service';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import {
  type DynamoTables,
  approvalRepository,
  cartRepository,
  catalogRepository,
  orderRepository,
  organizationRepository,
} from './repositories';

export interface ApprovalExpiryDependencies extends BaseDependencies {
  readonly approvalService: ApprovalService;
}

/**
 * The sweep only expires requests: one read and one transaction in the orders table each.
 * The service's other collaborators are built but never called, and the function has
 * access to no other table.
 */
export function composeApprovalExpiry(base: BaseDependencies, db: DynamoDBDocumentClient): ApprovalExpiryDependencies {
  const tables: DynamoTables = { config: base.config, db };
  const catalog = catalogRepository(tables);
  const carts = cartRepository(tables);
  return {
    ...base,
    approvalService: new ApprovalService({
      approvals: approvalRepository(tables, base.clock),
      orders: new OrderService({
        orders: orderRepository(tables, base.clock),
        carts,
        catalog,
        clock: base.clock,
        metrics: base.metrics,
      }),
      organizations: organizationRepository(tables),
      carts,
      catalog,
      clock: base.clock,
      metrics: base.metrics,
    }),
  };
}

export const approvalExpiryFromEnvironment = lambdaRoot((config) =>
  composeApprovalExpiry(createLambdaBase(config), createDocumentClient(undefined, traced)),
);
