import { tableName } from '../lib/resources';
import { DynamoIdentityDirectory } from './adapters/dynamodb/identity-directory';
import { DynamoOrganizationRepository } from './adapters/dynamodb/organization-repository';
import { DynamoPartnerRepository } from './adapters/dynamodb/partner-repository';
import { DynamoRateLimitCounter } from './adapters/dynamodb/rate-limit-counter';
import { DynamoSessionRepository } from './adapters/dynamodb/session-repository';
import { type AwsClients, createAwsClients } from './adapters/aws-clients';
import { loadRuntimeConfig, type RuntimeConfig } from './config';
import { Authenticator } from './domain/access/authenticator';
import { RateLimiter } from './domain/access/rate-limiter';
import { type Clock, systemClock } from './domain/clock';
import { jsonLinesLogger, type Logger } from './domain/logger';
import { PartnerAdmin } from './domain/partners/partner-admin';
import type { IdentityDirectory } from './domain/identity/identity-user';
import type { OrganizationRepository } from './domain/organizations/organization-repository';
import type { PartnerRepository } from './domain/partners/partner-repository';
import { EmbeddedSessions } from './domain/sessions/embedded-sessions';
import { Handshake } from './domain/sessions/handshake';
import { SessionAdmin } from './domain/sessions/session-admin';
import type { SessionRepository } from './domain/sessions/session-repository';

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
}

export interface DependencyOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/** The composition root: the only place that knows which adapter implements which port. */
export function createDependencies(config: RuntimeConfig, aws: AwsClients, overrides: DependencyOverrides = {}): Dependencies {
  const clock = overrides.clock ?? systemClock;
  const table = (name: Parameters<typeof tableName>[1]) => tableName(config.RESOURCE_PREFIX, name);
  const partners = new DynamoPartnerRepository(aws.db, table('partners'));
  const organizations = new DynamoOrganizationRepository(aws.db, table('organizations'), table('identityUsers'));
  const identity = new DynamoIdentityDirectory(aws.db, table('identityUsers'));
  const sessions = new DynamoSessionRepository(aws.db, table('sessions'));
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
    identity,
    sessions,
    handshake: new Handshake(organizations, identity, sessions, clock),
    embeddedSessions: new EmbeddedSessions(organizations, identity, sessions, clock),
    sessionAdmin: new SessionAdmin(partners, organizations, sessions, clock),
  };
}

let lambdaDependencies: Promise<Dependencies> | undefined;

/** Lambda's composition root: configuration from the environment the stack set. */
export const dependenciesFromEnvironment = (): Promise<Dependencies> => {
  lambdaDependencies ??= Promise.resolve(createDependencies(loadRuntimeConfig(process.env), createAwsClients()));
  return lambdaDependencies;
};
