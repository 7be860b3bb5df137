import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../lib/resources';
import { DynamoIdempotencyStore } from './adapters/dynamodb/idempotency-store';
import { DynamoIdentityDirectory } from './adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from './adapters/dynamodb/organization-repository';
import { DynamoPartnerRepository } from './adapters/dynamodb/partner-repository';
import { DynamoRateLimitCounter } from './adapters/dynamodb/rate-limit-counter';
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
  const partners = new DynamoPartnerRepository(aws.db, table('partners'));
  const organizations = new DynamoOrganizationRepository(
    overrides.organizationsDb ?? aws.db,
    table('organizations'),
    table('identityUsers'),
  );
  const payments = overrides.payments ?? new StripePayments(stripeClientSource(config, aws.secrets));
  return {
    config,
    clock,
    logger: overrides.logger ?? jsonLinesLogger(),
    aws,
    partners,
    partnerAdmin: new PartnerAdmin(partners, config.API_KEY_PREFIX, clock),
    authenticator: new Authenticator(partners, config.API_KEY_PREFIX),
    rateLimiter: new RateLimiter(new DynamoRateLimitCounter(aws.db, table('rateLimits')), clock, config.STAGE),
    organizations,
    identity: new DynamoIdentityDirectory(aws.db, table('identityUsers')),
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
