import { DynamoIdentityDirectory } from './adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from './adapters/dynamodb/organization-repository';
import { DynamoPartnerRepository } from './adapters/dynamodb/partner-repository';
import { DynamoSessionRepository } from './adapters/dynamodb/session-repository';
import type { AwsClients } from './adapters/aws-clients';
import { SqsMessageQueue } from './adapters/sqs-queue';
import { createBase, type DependencyOverrides, tablesOf } from './composition/base';
import { composeEmbed, type EmbedDependencies } from './composition/embed';
import { composeHandshake, type HandshakeDependencies } from './composition/handshake';
import { composeOrderFanout, type OrderFanoutDependencies } from './composition/order-fanout';
import { composeOrderOutboxRelay, type OrderOutboxRelayDependencies } from './composition/order-outbox-relay';
import { composeSetup, type SetupDependencies } from './composition/setup';
import { composeWebhookDispatch, type WebhookDispatchDependencies } from './composition/webhook-dispatch';
import type { RuntimeConfig } from './config';
import type { IdentityDirectory } from './domain/identity/identity-user';
import type { OrganizationRepository } from './domain/organizations/organization-repository';
import { PartnerAdmin } from './domain/partners/partner-admin';
import type { PartnerRepository } from './domain/partners/partner-repository';
import { SessionAdmin } from './domain/sessions/session-admin';
import type { SessionRepository } from './domain/sessions/session-repository';
import { OrderEventPublisher } from './domain/webhooks/order-event-publisher';
import type { OrderEventMessage } from './domain/webhooks/order-events';
import { WebhookAdmin } from './domain/webhooks/webhook-admin';

export type { DependencyOverrides } from './composition/base';

/**
 * Everything at once: what every function has (each Lambda composes only its own part,
 * in `functions/composition/`), plus the repositories and operator services the local
 * stack, the operator CLI and the tests use.
 */
export interface Dependencies
  extends SetupDependencies,
    HandshakeDependencies,
    EmbedDependencies,
    OrderOutboxRelayDependencies,
    OrderFanoutDependencies,
    WebhookDispatchDependencies {
  readonly aws: AwsClients;
  readonly partners: PartnerRepository;
  readonly partnerAdmin: PartnerAdmin;
  readonly organizations: OrganizationRepository;
  readonly identity: IdentityDirectory;
  readonly sessions: SessionRepository;
  readonly sessionAdmin: SessionAdmin;
  /** Ingestion: validates an order event and queues it for fan-out. */
  readonly orderEvents: OrderEventPublisher;
  readonly webhookAdmin: WebhookAdmin;
}

/** The local stack's, the CLI's and the tests' composition root. */
export function createDependencies(config: RuntimeConfig, aws: AwsClients, overrides: DependencyOverrides = {}): Dependencies {
  const base = createBase(config, overrides);
  const table = tablesOf(config);
  const partners = new DynamoPartnerRepository(aws.db, table('partners'));
  const organizations = new DynamoOrganizationRepository(overrides.organizationsDb ?? aws.db, table('organizations'), table('identityUsers'));
  const sessions = new DynamoSessionRepository(aws.db, table('sessions'));
  const dispatch = composeWebhookDispatch(base, aws);
  return {
    ...composeSetup(base, aws, overrides),
    ...composeHandshake(base, aws.db),
    ...composeEmbed(base, aws.db),
    ...composeOrderOutboxRelay(base, aws),
    ...composeOrderFanout(base, aws),
    ...dispatch,
    aws,
    partners,
    partnerAdmin: new PartnerAdmin(partners, config.API_KEY_PREFIX, base.clock),
    organizations,
    identity: new DynamoIdentityDirectory(aws.db, table('identityUsers')),
    sessions,
    sessionAdmin: new SessionAdmin(partners, organizations, sessions, base.clock),
    orderEvents: new OrderEventPublisher(
      partners,
      organizations,
      new SqsMessageQueue<OrderEventMessage>(aws.sqs, config.ORDER_EVENTS_QUEUE_URL),
      base.clock,
    ),
    webhookAdmin: new WebhookAdmin(
      partners,
      dispatch.webhookEndpoints,
      dispatch.signingSecrets,
      dispatch.deliveries,
      dispatch.deliveryQueue,
      config.WEBHOOK_REQUIRE_HTTPS_PUBLIC,
      base.clock,
    ),
  };
}
