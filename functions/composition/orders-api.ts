import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { PartnerInvoices } from '../domain/billing/partner-invoices';
import { ApprovalService } from '../domain/approvals/approval-service';
import { SandboxApprovals } from '../domain/approvals/sandbox-approvals';
import { IdempotencyGuard } from '../domain/idempotency/idempotency-guard';
import type { CatalogRepository } from '../domain/catalog/catalog-repository';
import { OrderService } from '../domain/orders/order-service';
import { SandboxOrders } from '../domain/orders/sandbox-orders';
import type { OrganizationRepository } from '../domain/organizations/organization-repository';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import {
  type DynamoTables,
  approvalRepository,
  cartRepository,
  catalogRepository,
  idempotencyStore,
  invoiceRepository,
  orderRepository,
  organizationRepository,
} from './repositories';
import { traced } from '../adapters/observability/tracing';

export interface OrdersApiDependencies extends ApiDependencies {
  readonly catalog: CatalogRepository;
  readonly organizations: OrganizationRepository;
  readonly orderService: OrderService;
  /** The organization's approval requests; on sandbox, decided through `sandboxApprovals`. */
  readonly approvalService: ApprovalService;
  /** Used by the sandbox routes only, which production does not have. */
  readonly sandboxOrders: SandboxOrders;
  readonly sandboxApprovals: SandboxApprovals;
  /** `Idempotency-Key` of the sandbox decisions (production has none of them, nor access to the table). */
  readonly idempotency: IdempotencyGuard;
  /** The partner's invoices (GET /v1/invoices…) and an order's invoice on GET /v1/orders/{order_id}. */
  readonly invoices: PartnerInvoices;
}

export function composeOrdersApi(base: BaseDependencies, db: DynamoDBDocumentClient): OrdersApiDependencies {
  const tables: DynamoTables = { config: base.config, db };
  const catalog = catalogRepository(tables);
  const organizations = organizationRepository(tables);
  // The API orders and requests explicit lines, never a cart, and never withdraws a
  // request (the requester's own act, in the module): the carts repository is built but
  // never called, and the function has no access to that table.
  const carts = cartRepository(tables);
  const orderService = new OrderService({
    orders: orderRepository(tables, base.clock),
    carts,
    catalog,
    clock: base.clock,
    metrics: base.metrics,
  });
  const approvalService = new ApprovalService({
    approvals: approvalRepository(tables, base.clock),
    orders: orderService,
    organizations,
    carts,
    catalog,
    clock: base.clock,
    metrics: base.metrics,
  });
  return {
    ...composeApiAccess(base, tables),
    catalog,
    organizations,
    orderService,
    approvalService,
    sandboxOrders: new SandboxOrders(organizations, catalog, orderService, approvalService),
    sandboxApprovals: new SandboxApprovals(organizations, approvalService),
    idempotency: new IdempotencyGuard(idempotencyStore(tables), base.clock),
    invoices: new PartnerInvoices(invoiceRepository(tables, base.clock), organizations),
  };
}

export const ordersApiFromEnvironment = lambdaRoot((config) =>
  composeOrdersApi(createLambdaBase(config), createDocumentClient(undefined, traced)),
);
