import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { DynamoIdempotencyStore } from '../adapters/dynamodb/idempotency-store';
import { DynamoOrganizationRepository } from '../adapters/dynamodb/organization-repository';
import { stripeClientSource } from '../adapters/stripe-client';
import { StripePayments } from '../adapters/stripe-payments';
import { IdempotencyGuard } from '../domain/idempotency/idempotency-guard';
import { OrganizationSetup } from '../domain/organizations/organization-setup';
import type { PaymentProvider } from '../domain/payments/payment-provider';
import { type ApiDependencies, composeApiAccess } from './api-access';
import { type BaseDependencies, createBase, type DependencyOverrides, tablesOf } from './base';
import { lambdaRoot } from './lambda-root';

export interface SetupDependencies extends ApiDependencies {
  readonly payments: PaymentProvider;
  readonly organizationSetup: OrganizationSetup;
  readonly idempotency: IdempotencyGuard;
}

export function composeSetup(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; secrets: SecretsManagerClient },
  overrides: DependencyOverrides = {},
): SetupDependencies {
  const table = tablesOf(base.config);
  const organizations = new DynamoOrganizationRepository(overrides.organizationsDb ?? clients.db, table('organizations'), table('identityUsers'));
  const payments = overrides.payments ?? new StripePayments(stripeClientSource(base.config, clients.secrets));
  return {
    ...composeApiAccess(base, clients.db),
    payments,
    organizationSetup: new OrganizationSetup({ organizations, payments, clock: base.clock, stage: base.config.STAGE }),
    idempotency: new IdempotencyGuard(new DynamoIdempotencyStore(clients.db, table('idempotency')), base.clock),
  };
}

export const setupFromEnvironment = lambdaRoot((config) =>
  composeSetup(createBase(config), { db: createDocumentClient(), secrets: createSecretsClient() }),
);
