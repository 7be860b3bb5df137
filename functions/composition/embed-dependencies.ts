import type { S3Client } from '@aws-sdk/client-s3';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createS3Client } from '../adapters/aws/s3-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import type { SalesTaxProvider } from '../domain/tax/sales-tax-provider';
import { S3ProductImageStore } from '../adapters/s3-product-images';
import type { ProductImageStore } from '../domain/catalog/product-image';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import { EmbeddedSessions } from '../domain/sessions/embedded-sessions';
import { bundledEmbedBrowserScripts, type EmbedBrowserScripts } from '../embed-host/browser-scripts';
import { type BaseDependencies, createLambdaBase } from './base';
import { type CommerceDependencies, composeCommerce } from './commerce';
import { lambdaRoot } from './lambda-root';
import { OrderGuideService } from '../domain/orders/order-guide';
import { PartnerInvoices } from '../domain/billing/partner-invoices';
import { OrganizationStatements } from '../domain/billing/organization-statement';
import { SpendReports } from '../domain/spending/spend-reports';
import {
  type DynamoTables,
  identityDirectory,
  invoiceRepository,
  orderGuideRepository,
  orderRepository,
  organizationRepository,
  partnerRepository,
  sessionRepository,
} from './repositories';

export interface EmbedDependencies extends BaseDependencies, CommerceDependencies {
  /** For the partner's allowed frame ancestors. */
  readonly partners: PartnerRepository;
  readonly embeddedSessions: EmbeddedSessions;
  /** The organizations' order guides (embed host only: the partner API has none). */
  readonly orderGuide: OrderGuideService;
  /** The SDK and the module bridge: compiled into the Lambda bundle, built by the local runtime. */
  readonly browserScripts: EmbedBrowserScripts | undefined;
  /** Product pictures, which the embed host serves from the stack's bucket. */
  readonly productImages: ProductImageStore;
  /** The organization's invoices: the order page's Invoice section and the Invoices page. */
  readonly invoices: PartnerInvoices;
  /** What the organization owes, at the top of the Invoices page. */
  readonly statements: OrganizationStatements;
  /** The approvers' Spending page: the same reports the partner API's spend route answers. */
  readonly spendReports: SpendReports;
}

export function composeEmbed(
  base: BaseDependencies,
  clients: { readonly db: DynamoDBDocumentClient; readonly s3: S3Client; readonly secrets: SecretsManagerClient },
  browserScripts = bundledEmbedBrowserScripts(),
  salesTaxProvider?: SalesTaxProvider,
): EmbedDependencies {
  const { db } = clients;
  const tables: DynamoTables = { config: base.config, db };
  const commerce = composeCommerce(base, tables, clients.secrets, salesTaxProvider);
  return {
    ...base,
    ...commerce,
    orderGuide: new OrderGuideService(orderGuideRepository(tables), commerce.catalog, commerce.cartService, base.clock),
    partners: partnerRepository(tables),
    embeddedSessions: new EmbeddedSessions(
      organizationRepository(tables),
      identityDirectory(tables),
      sessionRepository(tables),
      base.clock,
      {
        idleMs: base.config.EMBED_SESSION_IDLE_S * 1000,
      },
      base.metrics,
    ),
    browserScripts,
    productImages: new S3ProductImageStore(clients.s3, base.config.PRODUCT_IMAGES_BUCKET),
    invoices: new PartnerInvoices(invoiceRepository(tables, base.clock), organizationRepository(tables)),
    statements: new OrganizationStatements(
      invoiceRepository(tables, base.clock),
      organizationRepository(tables),
      base.clock,
    ),
    spendReports: new SpendReports(
      organizationRepository(tables),
      orderRepository(tables, base.clock),
      commerce.catalog,
      base.clock,
      invoiceRepository(tables, base.clock),
    ),
  };
}

export const embedFromEnvironment = lambdaRoot((config) =>
  composeEmbed(createLambdaBase(config), {
    db: createDocumentClient(),
    s3: createS3Client(),
    secrets: createSecretsClient(),
  }),
);
