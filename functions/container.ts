import type { AwsClients } from './adapters/aws-clients';
import { type ApprovalExpiryDependencies, composeApprovalExpiry } from './composition/approval-expiry-dependencies';
import { type BaseDependencies, createBase, type DependencyOverrides } from './composition/base';
import { composeEmbed, type EmbedDependencies } from './composition/embed-dependencies';
import { composeHandshake, type HandshakeDependencies } from './composition/handshake-dependencies';
import { composeOrdersApi, type OrdersApiDependencies } from './composition/orders-api-dependencies';
import { orderEventQueue, deliveryQueue } from './composition/message-queues';
import { composeOrderFanout, type OrderFanoutDependencies } from './composition/order-fanout-dependencies';
import {
  composeOrderOutboxRelay,
  type OrderOutboxRelayDependencies,
} from './composition/order-outbox-relay-dependencies';
import { type CommerceDependencies, composeCommerce } from './composition/commerce';
import {
  type DynamoTables,
  deliveryRepository,
  identityDirectory,
  orderRepository,
  organizationRepository,
  partnerRepository,
  sessionRepository,
  webhookEndpointRepository,
  endpointGate,
} from './composition/repositories';
import { composeInvoicing, type InvoicingDependencies } from './composition/invoicing-dependencies';
import { composeInvoiceSweep, type InvoiceSweepDependencies } from './composition/invoice-sweep-dependencies';
import { composeSetup, type SetupDependencies } from './composition/setup-dependencies';
import { composeWebhookDispatch, type WebhookDispatchDependencies } from './composition/webhook-dispatch-dependencies';
import { composeWebhookTest, type WebhookTestDependencies } from './composition/webhook-test-dependencies';
import { composeWebhooksApi, type WebhooksApiDependencies } from './composition/webhooks-api-dependencies';
import type { RuntimeConfig } from './config';
import type { IdentityDirectory } from './domain/identity/identity-user';
import type { OrganizationRepository } from './domain/organizations/organization-repository';
import { PartnerAdmin } from './domain/partners/partner-admin';
import type { PartnerRepository } from './domain/partners/partner-repository';
import { ProfileAdmin } from './domain/organizations/profile-admin';
import { SessionAdmin } from './domain/sessions/session-admin';
import type { SessionRepository } from './domain/sessions/session-repository';
import type { DeliveryRepository } from './webhooks/delivery-repository';
import type { OrderIdSearch, OrderRepository } from './domain/orders/order-repository';
import type { ProductImageStore } from './domain/catalog/product-image';
import { OrderEventPublisher } from './webhooks/order-event-publisher';
import { WebhookAdmin } from './webhooks/webhook-admin';
import type { WebhookEndpointRepository } from './webhooks/webhook-endpoint';
import type { EndpointGate } from './webhooks/endpoint-circuit';
import type { FunctionName } from './resources/resource-definitions';

export type { DependencyOverrides } from './composition/base';

/** Each function's dependencies, as its own Lambda composes them, under the function's name. */
export interface FunctionDependencies extends Record<FunctionName, BaseDependencies> {
  readonly setup: SetupDependencies;
  readonly handshake: HandshakeDependencies;
  readonly embed: EmbedDependencies;
  readonly ordersApi: OrdersApiDependencies;
  readonly webhookTest: WebhookTestDependencies;
  readonly webhooksApi: WebhooksApiDependencies;
  readonly orderOutboxRelay: OrderOutboxRelayDependencies;
  readonly orderFanout: OrderFanoutDependencies;
  readonly webhookDispatch: WebhookDispatchDependencies;
  readonly webhookSlowDispatch: WebhookDispatchDependencies;
  readonly approvalExpiry: ApprovalExpiryDependencies;
  readonly invoicing: InvoicingDependencies;
  readonly invoiceSweep: InvoiceSweepDependencies;
}

/**
 * The local stack's, the CLI's and the tests' composition root: every function's
 * dependencies side by side (never merged, so no function's can shadow another's),
 * plus the repositories and operator services the local stack, the CLI and the tests use.
 */
export interface Dependencies extends BaseDependencies, CommerceDependencies {
  readonly aws: AwsClients;
  readonly functions: FunctionDependencies;
  readonly partners: PartnerRepository;
  readonly partnerAdmin: PartnerAdmin;
  readonly organizations: OrganizationRepository;
  readonly identity: IdentityDirectory;
  readonly sessions: SessionRepository;
  readonly sessionAdmin: SessionAdmin;
  /** Disabling and enabling a user's sign-in (operator CLI). */
  readonly profileAdmin: ProfileAdmin;
  /** Ingestion: validates an order event and queues it for fan-out. */
  readonly orderEvents: OrderEventPublisher;
  readonly webhookAdmin: WebhookAdmin;
  readonly webhookEndpoints: WebhookEndpointRepository;
  /** Admission to endpoints as the dispatcher claims it (tests: a crashed claim, a race of claims). */
  readonly endpointGate: EndpointGate;
  readonly deliveries: DeliveryRepository;
  /** Orders by id (or the module's short id) whatever their partner: the operator CLI acts for an order's own partner. */
  readonly orders: OrderRepository & OrderIdSearch;
  /** Product pictures: the catalog import and the local seed write them. */
  readonly productImages: ProductImageStore;
}

export function createDependencies(
  config: RuntimeConfig,
  aws: AwsClients,
  overrides: DependencyOverrides = {},
): Dependencies {
  const base = createBase(config, overrides);
  const { clock } = base;
  const webhookDispatch = composeWebhookDispatch(base, aws, overrides);
  const functions: FunctionDependencies = {
    setup: composeSetup(base, aws, overrides),
    handshake: composeHandshake(base, aws.db),
    embed: composeEmbed(base, aws, overrides.embedBrowserScripts, overrides.salesTax),
    ordersApi: composeOrdersApi(base, aws, overrides.salesTax),
    webhookTest: composeWebhookTest(base, aws),
    webhooksApi: composeWebhooksApi(base, aws),
    orderOutboxRelay: composeOrderOutboxRelay(base, aws),
    orderFanout: composeOrderFanout(base, aws),
    webhookDispatch,
    webhookSlowDispatch: composeWebhookDispatch(base, aws, {
      ...overrides,
      path: 'slow',
      signingSecrets: webhookDispatch.signingSecrets,
    }),
    approvalExpiry: composeApprovalExpiry(base, aws.db),
    invoicing: composeInvoicing(base, aws, overrides.invoicingProvider, overrides.salesTax),
    invoiceSweep: composeInvoiceSweep(base, aws, overrides.invoicingProvider, overrides.salesTax),
  };
  const tables: DynamoTables = { config, db: aws.db };
  const partners = partnerRepository(tables);
  const organizations = organizationRepository(tables, overrides.organizationsDb);
  const sessions = sessionRepository(tables);
  const webhookEndpoints = webhookEndpointRepository(tables);
  const deliveries = deliveryRepository(tables);
  return {
    config,
    clock,
    logger: base.logger,
    metrics: base.metrics,
    aws,
    functions,
    partners,
    partnerAdmin: new PartnerAdmin(partners, config.API_KEY_PREFIX, clock),
    organizations,
    identity: identityDirectory(tables),
    sessions,
    sessionAdmin: new SessionAdmin(partners, organizations, sessions, clock),
    profileAdmin: new ProfileAdmin(partners, organizations, identityDirectory(tables), sessions, clock),
    orderEvents: new OrderEventPublisher(partners, organizations, orderEventQueue(config, aws.sqs), clock),
    webhookAdmin: new WebhookAdmin({
      partners,
      endpoints: webhookEndpoints,
      secrets: functions.webhookDispatch.signingSecrets,
      deliveries,
      queue: deliveryQueue(config, aws.sqs),
      requireHttpsPublic: config.WEBHOOK_REQUIRE_HTTPS_PUBLIC,
      clock,
    }),
    webhookEndpoints,
    endpointGate: endpointGate(tables),
    deliveries,
    orders: orderRepository(tables, clock),
    productImages: functions.embed.productImages,
    ...composeCommerce(base, tables, aws.secrets, overrides.salesTax),
  };
}
