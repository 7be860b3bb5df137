import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { stripeClientSource } from '../adapters/stripe-client';
import { StripeTax } from '../adapters/stripe-tax';
import { ApprovalService } from '../domain/approvals/approval-service';
import type { SalesTaxProvider } from '../domain/tax/sales-tax-provider';
import { type SalesTaxMemory, SalesTaxQuotes } from '../domain/tax/sales-tax-quotes';
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

/**
 * Stripe Tax for quotes, its calculations remembered beside the buyer's cart (one call per
 * cart contents and address). The client is built on the first quote, not at cold start.
 */
export function composeSalesTax(
  base: BaseDependencies,
  memory: SalesTaxMemory,
  secrets: SecretsManagerClient,
  provider?: SalesTaxProvider,
): SalesTaxQuotes {
  return new SalesTaxQuotes({
    provider: provider ?? new StripeTax(stripeClientSource(base.config, secrets)),
    memory,
    clock: base.clock,
  });
}

export function composeCommerce(
  base: BaseDependencies,
  tables: DynamoTables,
  secrets: SecretsManagerClient,
  salesTaxProvider?: SalesTaxProvider,
): CommerceDependencies {
  const catalog = catalogRepository(tables);
  const carts = cartRepository(tables);
  const orderService = new OrderService({
    orders: orderRepository(tables, base.clock),
    carts,
    catalog,
    clock: base.clock,
    metrics: base.metrics,
    salesTax: composeSalesTax(base, carts, secrets, salesTaxProvider),
    organizations: organizationRepository(tables),
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
