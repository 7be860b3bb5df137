import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { traced } from '../adapters/observability/tracing';
import { InvoiceSweep } from '../domain/billing/invoice-sweep';
import type { SalesTaxProvider } from '../domain/tax/sales-tax-provider';
import type { InvoicingProvider } from '../domain/billing/invoicing-provider';
import type { BaseDependencies } from './base';
import { createLambdaBase } from './base';
import { composeInvoicing } from './invoicing-dependencies';
import { lambdaRoot } from './lambda-root';
import { uninvoicedShipments } from './repositories';

export interface InvoiceSweepDependencies extends BaseDependencies {
  readonly invoiceSweep: InvoiceSweep;
}

/** The invoicing consumer's own service (same Stripe calls, same idempotency keys) behind the sweep. */
export function composeInvoiceSweep(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; secrets: SecretsManagerClient; sqs: SQSClient },
  provider?: InvoicingProvider,
  salesTax?: SalesTaxProvider,
): InvoiceSweepDependencies {
  const { invoicing } = composeInvoicing(base, clients, provider, salesTax);
  return {
    ...base,
    invoiceSweep: new InvoiceSweep({
      shipments: uninvoicedShipments({ config: base.config, db: clients.db }),
      invoicing,
      clock: base.clock,
      metrics: base.metrics,
      logger: base.logger,
      graceSeconds: base.config.INVOICE_SWEEP_GRACE_S,
    }),
  };
}

export const invoiceSweepFromEnvironment = lambdaRoot((config) =>
  composeInvoiceSweep(createLambdaBase(config), {
    db: createDocumentClient(undefined, traced),
    secrets: createSecretsClient(undefined, traced),
    sqs: createSqsClient(undefined, traced),
  }),
);
