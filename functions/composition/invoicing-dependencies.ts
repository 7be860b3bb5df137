import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { traced } from '../adapters/observability/tracing';
import { stripeClientSource } from '../adapters/stripe-client';
import { StripeTax } from '../adapters/stripe-tax';
import type { SalesTaxProvider } from '../domain/tax/sales-tax-provider';
import { StripeInvoicing } from '../adapters/stripe-invoicing';
import { InvoicingService } from '../domain/billing/invoicing-service';
import type { InvoicingProvider } from '../domain/billing/invoicing-provider';
import type { InvoiceRepository } from '../domain/billing/invoice-repository';
import { type BaseDependencies, createLambdaBase } from './base';
import { lambdaRoot } from './lambda-root';
import { orderEventQueue } from './message-queues';
import { type DynamoTables, invoiceRepository, orderRepository, organizationRepository } from './repositories';

export interface InvoicingDependencies extends BaseDependencies {
  readonly invoicing: InvoicingService;
  /** The invoice records the service keeps (the operator CLI lists and shows them). */
  readonly invoices: InvoiceRepository;
}

/** `provider` replaces Stripe (tests inject failures at each step of issuing). */
export function composeInvoicing(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; secrets: SecretsManagerClient; sqs: SQSClient },
  provider?: InvoicingProvider,
  salesTax?: SalesTaxProvider,
): InvoicingDependencies {
  const tables: DynamoTables = { config: base.config, db: clients.db };
  const invoices = invoiceRepository(tables, base.clock);
  const stripe = stripeClientSource(base.config, clients.secrets);
  return {
    ...base,
    invoices,
    invoicing: new InvoicingService({
      orders: orderRepository(tables, base.clock),
      organizations: organizationRepository(tables),
      invoices,
      provider: provider ?? new StripeInvoicing(stripe),
      salesTax: salesTax ?? new StripeTax(stripe),
      clock: base.clock,
      metrics: base.metrics,
      // invoice.issued and invoice.credited, to the partner's subscribed endpoints.
      events: orderEventQueue(base.config, clients.sqs),
      stage: base.config.STAGE,
    }),
  };
}

export const invoicingFromEnvironment = lambdaRoot((config) =>
  composeInvoicing(createLambdaBase(config), {
    db: createDocumentClient(undefined, traced),
    secrets: createSecretsClient(undefined, traced),
    sqs: createSqsClient(undefined, traced),
  }),
);
