import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/resources';
import { DynamoIdempotencyStore } from './adapters/dynamodb/idempotency-store';
import { DynamoIdentityDirectory } from './adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from './adapters/dynamodb/organization-repository';
import { DynamoPartnerRepository } from './adapters/dynamodb/partner-repository';
import { DynamoRateLimitCounter } from './adapters/dynamodb/rate-limit-counter';
import { DynamoSessionRepository } from './adapters/dynamodb/session-repository';
import { DynamoDeliveryRepository } from './adapters/dynamodb/delivery-repository';
import { DynamoWebhookEndpointRepository } from './adapters/dynamodb/webhook-endpoint-repository';
import { SecretsManagerSigningSecretStore } from './adapters/secret-store';
import { SesAlertMailer } from './adapters/ses-mailer';
import { SqsMessageQueue } from './adapters/sqs-queue';
import { HttpWebhookTransport } from './adapters/webhook-http/http-webhook-transport';
import { type AwsClients, createAwsClients } from './adapters/aws-clients';
import { stripeClientSource } from './adapters/stripe-client';
import { StripePayments } from './adapters/stripe-payments';
import { loadRuntimeConfig, type RuntimeConfig } from './config';
import { Authenticator } from './domain/access/authenticator';
import { RateLimiter } from './domain/access/rate-limiter';
import { type Clock, systemClock } from './domain/clock';
import { IdempotencyGuard } from './domain/idempotency/idempotency-guard';
import { jsonLinesLogger, type Logger } from './domain/logger';
import { OrganizationSetup } from './domain/organizations/organization-setup';
import { PartnerAdmin } from './domain/partners/partner-admin';
import type { IdentityDirectory } from './domain/identity/identity-user';
import type { OrganizationRepository } from './domain/organizations/organization-repository';
import type { PartnerRepository } from './domain/partners/partner-repository';
import { EmbeddedSessions } from './domain/sessions/embedded-sessions';
import { Handshake } from './domain/sessions/handshake';
import { SessionAdmin } from './domain/sessions/session-admin';
import type { SessionRepository } from './domain/sessions/session-repository';
import type { DeliveryMessage } from './domain/webhooks/delivery';
import type { DeliveryRepository } from './domain/webhooks/delivery-repository';
import { OrderEventPublisher } from './domain/webhooks/order-event-publisher';
import type { OrderEventMessage } from './domain/webhooks/order-events';
import { RetrySchedule } from './domain/webhooks/retry-schedule';
import type { SigningSecretStore } from './domain/webhooks/signing-secret-store';
import { WebhookAdmin } from './domain/webhooks/webhook-admin';
import { WebhookDispatcher } from './domain/webhooks/webhook-dispatcher';
import type { WebhookEndpointRepository } from './domain/webhooks/webhook-endpoint';
import { WebhookFanout } from './domain/webhooks/webhook-fanout';
import type { PaymentProvider } from './domain/payments/payment-provider';

/** Everything a handler may use, built once per cold start (or per test). */
export interface Dependencies {
  readonly config: RuntimeConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly aws: AwsClients;
  readonly partners: PartnerRepository;
  readonly partnerAdmin: PartnerAdmin;
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly organizations: OrganizationRepository;
  readonly identity: IdentityDirectory;
  readonly sessions: SessionRepository;
  readonly handshake: Handshake;
  readonly embeddedSessions: EmbeddedSessions;
  readonly sessionAdmin: SessionAdmin;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly deliveries: DeliveryRepository;
  readonly signingSecrets: SigningSecretStore;
  /** Ingestion: validates an order event and queues it for fan-out. */
  readonly orderEvents: OrderEventPublisher;
  readonly webhookFanout: WebhookFanout;
  readonly webhookDispatcher: WebhookDispatcher;
  readonly webhookAdmin: WebhookAdmin;
  readonly payments: PaymentProvider;
  readonly organizationSetup: OrganizationSetup;
  readonly idempotency: IdempotencyGuard;
}

export interface DependencyOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Replaces Stripe (tests: a provider that fails on demand). */
  readonly payments?: PaymentProvider;
  /** The DynamoDB client of the organization repository only (tests: inject failing transactions). */
  readonly organizationsDb?: DynamoDBDocumentClient;
}

/** The composition root: the only place that knows which adapter implements which port. */
export function createDependencies(config: RuntimeConfig, aws: AwsClients, overrides: DependencyOverrides = {}): Dependencies {
  const clock = overrides.clock ?? systemClock;
  const table = (name: Parameters<typeof tableName>[1]) => tableName(config.RESOURCE_PREFIX, name);
  const logger = overrides.logger ?? jsonLinesLogger();
  const partners = new DynamoPartnerRepository(aws.db, table('partners'));
  const organizations = new DynamoOrganizationRepository(
    overrides.organizationsDb ?? aws.db,
    table('organizations'),
    table('identityUsers'),
  );
  const payments = overrides.payments ?? new StripePayments(stripeClientSource(config, aws.secrets));
  const identity = new DynamoIdentityDirectory(aws.db, table('identityUsers'));
  const sessions = new DynamoSessionRepository(aws.db, table('sessions'));
  const webhookEndpoints = new DynamoWebhookEndpointRepository(aws.db, table('partners'));
  const deliveries = new DynamoDeliveryRepository(aws.db, table('webhooks'));
  const signingSecrets = new SecretsManagerSigningSecretStore(aws.secrets, config.RESOURCE_PREFIX, clock);
  const deliveryQueue = new SqsMessageQueue<DeliveryMessage>(aws.sqs, config.WEBHOOK_DELIVERIES_QUEUE_URL);
  const transport = new HttpWebhookTransport({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, requireHttpsPublic: config.WEBHOOK_REQUIRE_HTTPS_PUBLIC });
  return {
    config,
    clock,
    logger,
    aws,
    partners,
    partnerAdmin: new PartnerAdmin(partners, config.API_KEY_PREFIX, clock),
    authenticator: new Authenticator(partners, config.API_KEY_PREFIX),
    rateLimiter: new RateLimiter(new DynamoRateLimitCounter(aws.db, table('rateLimits')), clock, config.STAGE),
    organizations,
    identity,
    sessions,
    handshake: new Handshake(organizations, identity, sessions, clock),
    embeddedSessions: new EmbeddedSessions(organizations, identity, sessions, clock),
    sessionAdmin: new SessionAdmin(partners, organizations, sessions, clock),
    webhookEndpoints,
    deliveries,
    signingSecrets,
    orderEvents: new OrderEventPublisher(
      partners,
      organizations,
      new SqsMessageQueue<OrderEventMessage>(aws.sqs, config.ORDER_EVENTS_QUEUE_URL),
      clock,
    ),
    webhookFanout: new WebhookFanout(webhookEndpoints, deliveries, deliveryQueue, clock, logger),
    webhookDispatcher: new WebhookDispatcher({
      deliveries,
      endpoints: webhookEndpoints,
      partners,
      secrets: signingSecrets,
      transport,
      mailer: new SesAlertMailer(aws.ses, config.ALERT_SENDER_EMAIL),
      queue: deliveryQueue,
      schedule: new RetrySchedule(config.WEBHOOK_RETRY_DELAYS_S),
      clock,
      logger,
    }),
    webhookAdmin: new WebhookAdmin(
      partners,
      webhookEndpoints,
      signingSecrets,
      deliveries,
      deliveryQueue,
      config.WEBHOOK_REQUIRE_HTTPS_PUBLIC,
      clock,
    ),
    payments,
    organizationSetup: new OrganizationSetup({ organizations, payments, clock, stage: config.STAGE }),
    idempotency: new IdempotencyGuard(new DynamoIdempotencyStore(aws.db, table('idempotency')), clock),
  };
}

let lambdaDependencies: Promise<Dependencies> | undefined;

/** Lambda's composition root: configuration from the environment the stack set. */
export const dependenciesFromEnvironment = (): Promise<Dependencies> => {
  lambdaDependencies ??= Promise.resolve(createDependencies(loadRuntimeConfig(process.env), createAwsClients()));
  return lambdaDependencies;
};
