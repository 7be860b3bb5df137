import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { stripeClientSource } from '../adapters/stripe-client';
import { StripePayments } from '../adapters/stripe-payments';
import { IdempotencyGuard } from '../domain/idempotency/idempotency-guard';
import { OrganizationSetup } from '../domain/organizations/organization-setup';
import { PartnerOrganizations } from '../domain/organizations/partner-organizations';
import { PartnerShippingLocations } from '../domain/organizations/partner-shipping-locations';
import { PartnerUsers } from '../domain/organizations/partner-users';
import type { PaymentProvider } from '../domain/payments/payment-provider';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createLambdaBase, type DependencyOverrides } from './base';
import { lambdaRoot } from './lambda-root';
import { type DynamoTables, idempotencyStore, organizationRepository, sessionRepository } from './repositories';
import { traced } from '../adapters/observability/tracing';

export interface SetupDependencies extends ApiDependencies {
  readonly payments: PaymentProvider;
  readonly organizationSetup: OrganizationSetup;
  readonly idempotency: IdempotencyGuard;
  /** The partner's organizations, users and shipping locations after setup, served by this function too. */
  readonly partnerOrganizations: PartnerOrganizations;
  readonly partnerUsers: PartnerUsers;
  readonly partnerShippingLocations: PartnerShippingLocations;
}

export function composeSetup(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; secrets: SecretsManagerClient },
  overrides: Pick<DependencyOverrides, 'payments' | 'organizationsDb'> = {},
): SetupDependencies {
  const tables: DynamoTables = { config: base.config, db: clients.db };
  const payments = overrides.payments ?? new StripePayments(stripeClientSource(base.config, clients.secrets));
  const organizations = organizationRepository(tables, overrides.organizationsDb);
  return {
    ...composeApiAccess(base, tables),
    payments,
    organizationSetup: new OrganizationSetup({
      organizations,
      payments,
      clock: base.clock,
      stage: base.config.STAGE,
    }),
    idempotency: new IdempotencyGuard(idempotencyStore(tables), base.clock),
    partnerOrganizations: new PartnerOrganizations(organizations, payments),
    partnerUsers: new PartnerUsers(organizations, sessionRepository(tables), base.clock),
    partnerShippingLocations: new PartnerShippingLocations(organizations, base.clock),
  };
}

export const setupFromEnvironment = lambdaRoot((config) =>
  composeSetup(createLambdaBase(config), {
    db: createDocumentClient(undefined, traced),
    secrets: createSecretsClient(undefined, traced),
  }),
);
