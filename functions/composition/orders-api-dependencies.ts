import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { refuseUnverifiable, verifyStripeEvent } from '../adapters/stripe-event-verifier';
import { stripeClientSource, stripeEndpointSecretSource } from '../adapters/stripe-client';
import { StripeSandboxPayments } from '../adapters/stripe-sandbox-payments';
import { StripeInvoicing } from '../adapters/stripe-invoicing';
import { SandboxInvoices } from '../domain/billing/sandbox-invoices';
import { StripeEvents, type VerifiedStripeEvent } from '../domain/billing/stripe-events';
import { orderEventQueue } from './message-queues';
import { PartnerInvoices } from '../domain/billing/partner-invoices';
import { OrganizationStatements } from '../domain/billing/organization-statement';
import { ApprovalService } from '../domain/approvals/approval-service';
import { SandboxApprovals } from '../domain/approvals/sandbox-approvals';
import { IdempotencyGuard } from '../domain/idempotency/idempotency-guard';
import type { CatalogRepository } from '../domain/catalog/catalog-repository';
import { OrderService } from '../domain/orders/order-service';
import { SandboxOrders } from '../domain/orders/sandbox-orders';
import { SpendReports } from '../domain/spending/spend-reports';
import type { OrganizationRepository } from '../domain/organizations/organization-repository';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { composeSalesTax } from './commerce';
import type { SalesTaxProvider } from '../domain/tax/sales-tax-provider';
import { NO_SALES_TAX_MEMORY } from '../domain/tax/sales-tax-quotes';
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
  /** The organization's spend report (GET …/spend). */
  readonly spendReports: SpendReports;
  /** Used by the sandbox routes only, which production does not have. */
  readonly sandboxOrders: SandboxOrders;
  readonly sandboxApprovals: SandboxApprovals;
  /** `Idempotency-Key` of the sandbox decisions (production has none of them, nor access to the table). */
  readonly idempotency: IdempotencyGuard;
  /** Stripe's route: the exact bytes checked against `Stripe-Signature` and the stack's endpoint secret. */
  readonly verifyStripeEvent: (rawBody: Buffer, signature: string | undefined) => Promise<VerifiedStripeEvent>;
  readonly stripeEvents: StripeEvents;
  /** The sandbox's invoice actions (pay, overdue): production has neither route. */
  readonly sandboxInvoices: SandboxInvoices;
  /** The partner's invoices (GET /v1/invoices…) and an order's invoice on GET /v1/orders/{order_id}. */
  readonly invoices: PartnerInvoices;
  /** What an organization owes (GET /v1/organizations/{internalOrgId}/statement). */
  readonly statements: OrganizationStatements;
}

interface OrdersApiClients {
  readonly db: DynamoDBDocumentClient;
  readonly secrets: SecretsManagerClient;
  readonly sqs: SQSClient;
}

export function composeOrdersApi(
  base: BaseDependencies,
  clients: OrdersApiClients,
  salesTaxProvider?: SalesTaxProvider,
): OrdersApiDependencies {
  const { db } = clients;
  const tables: DynamoTables = { config: base.config, db };
  const catalog = catalogRepository(tables);
  const organizations = organizationRepository(tables);
  // The API orders and requests explicit lines, never a cart, and never withdraws a
  // request (the requester's own act, in the module): the carts repository is built but
  // never called, and the function has no access to that table. With no checkout before
  // them, its orders are each taxed by one Stripe Tax calculation, kept nowhere.
  const carts = cartRepository(tables);
  const orders = orderRepository(tables, base.clock);
  const orderService = new OrderService({
    orders,
    carts,
    catalog,
    clock: base.clock,
    metrics: base.metrics,
    salesTax: composeSalesTax(base, NO_SALES_TAX_MEMORY, clients.secrets, salesTaxProvider),
    organizations,
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
    spendReports: new SpendReports(organizations, orders, catalog, base.clock, invoiceRepository(tables, base.clock)),
    sandboxOrders: new SandboxOrders(organizations, catalog, orderService, approvalService),
    sandboxApprovals: new SandboxApprovals(organizations, approvalService),
    idempotency: new IdempotencyGuard(idempotencyStore(tables), base.clock),
    invoices: new PartnerInvoices(invoiceRepository(tables, base.clock), organizations),
    statements: new OrganizationStatements(invoiceRepository(tables, base.clock), organizations, base.clock),
    ...composeStripeEvents(base, clients),
  };
}

/** Stripe's events in and, on sandbox, the payments that make Stripe send them (docs/billing.md). */
function composeStripeEvents(
  base: BaseDependencies,
  clients: OrdersApiClients,
): Pick<OrdersApiDependencies, 'verifyStripeEvent' | 'stripeEvents' | 'sandboxInvoices'> {
  const invoices = invoiceRepository({ config: base.config, db: clients.db }, base.clock);
  const stripe = stripeClientSource(base.config, clients.secrets);
  const endpointSecret = stripeEndpointSecretSource(base.config, clients.secrets);
  return {
    verifyStripeEvent: async (rawBody, signature) => {
      refuseUnverifiable(rawBody, signature);
      const [client, secret] = await Promise.all([stripe(), endpointSecret()]);
      // The signature's age is transport time: the wall clock, as Stripe's is, not the service's clock.
      return verifyStripeEvent(client, rawBody, signature, secret, Math.floor(Date.now() / 1000));
    },
    stripeEvents: new StripeEvents({
      invoices,
      provider: new StripeInvoicing(stripe),
      clock: base.clock,
      metrics: base.metrics,
      events: orderEventQueue(base.config, clients.sqs),
    }),
    sandboxInvoices: new SandboxInvoices(
      invoices,
      new StripeSandboxPayments(stripe, base.config.STRIPE_API_BASE !== undefined),
    ),
  };
}

export const ordersApiFromEnvironment = lambdaRoot((config) =>
  composeOrdersApi(createLambdaBase(config), {
    db: createDocumentClient(undefined, traced),
    secrets: createSecretsClient(undefined, traced),
    sqs: createSqsClient(undefined, traced),
  }),
);
