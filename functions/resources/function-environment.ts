/**
 * The one writer of a function's environment. `functions/config.ts` reads it; the CDK
 * stack, the local runtime and the operator CLI all get it from here, so the three can
 * never configure the same function differently.
 */
import { TABLE_NAME_VARIABLES, type RuntimeEnvironment } from '../config';
import { productImagesBucketName, type QueueName, TABLES, tableName, type TableName } from './resource-definitions';
import type { EnvironmentConfig } from './stages';

/** Where a stack runs on the local stand-ins instead of AWS. */
interface LocalStandInSettings {
  /** The Stripe stand-in, e.g. `http://127.0.0.1:12111`. */
  readonly stripeApiBase: string;
  /** A Stripe key given directly instead of through Secrets Manager. */
  readonly stripeSecretKey?: string;
}

export interface FunctionEnvironmentOptions {
  readonly queueUrls: Readonly<Record<QueueName, string>>;
  /** Defaults to the stage's own prefix; the local runtime and tests use their own. */
  readonly resourcePrefix?: string;
  /** Defaults to `https://{embed_host}` of the stage; the local runtime serves it itself. */
  readonly embedBaseUrl?: string;
  readonly local?: LocalStandInSettings;
}

/** The Stripe key every local stack and test uses with the Stripe stand-in. */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_local';
const LOCAL_ALERT_SENDER = 'webhooks@localhost.test';

/**
 * Each table's physical name on a stage: its restored table where the stage names one
 * (`restoredTables`), else `${prefix}-<suffix>`. A stack with its own prefix (the local
 * runtime, tests) has only its own tables, created from the definitions.
 */
export function stageTableNames(stage: EnvironmentConfig, resourcePrefix?: string): Record<TableName, string> {
  const names = Object.keys(TABLES) as TableName[];
  return Object.fromEntries(
    names.map((name) => [
      name,
      (resourcePrefix === undefined ? stage.restoredTables?.[name]?.tableName : undefined) ??
        tableName(resourcePrefix ?? stage.resourcePrefix, name),
    ]),
  ) as Record<TableName, string>;
}

export function functionEnvironment(
  stage: EnvironmentConfig,
  options: FunctionEnvironmentOptions,
): Record<string, string> & RuntimeEnvironment {
  const { local } = options;
  const tableNames = stageTableNames(stage, options.resourcePrefix);
  return {
    STAGE: stage.stage,
    API_KEY_PREFIX: stage.apiKeyPrefix,
    RESOURCE_PREFIX: options.resourcePrefix ?? stage.resourcePrefix,
    EMBED_BASE_URL: options.embedBaseUrl ?? `https://${stage.embedDomainName}`,
    ...Object.fromEntries(
      (Object.keys(tableNames) as TableName[]).map((name) => [TABLE_NAME_VARIABLES[name], tableNames[name]]),
    ),
    PRODUCT_IMAGES_BUCKET: productImagesBucketName(options.resourcePrefix ?? stage.resourcePrefix),
    ORDER_EVENTS_QUEUE_URL: options.queueUrls.orderEvents,
    WEBHOOK_DELIVERIES_QUEUE_URL: options.queueUrls.webhookDeliveries,
    WEBHOOK_SLOW_DELIVERIES_QUEUE_URL: options.queueUrls.webhookSlowDeliveries,
    INVOICING_QUEUE_URL: options.queueUrls.invoicing,
    ...(local
      ? {
          STRIPE_SECRET_KEY: local.stripeSecretKey ?? LOCAL_STRIPE_SECRET_KEY,
          STRIPE_API_BASE: local.stripeApiBase,
          ALERT_SENDER_EMAIL: LOCAL_ALERT_SENDER,
        }
      : {
          STRIPE_SECRET_NAME: stage.stripeSecretName,
          STRIPE_WEBHOOK_SECRET_NAME: stage.stripeWebhookSecretName,
          ALERT_SENDER_EMAIL: stage.alertSenderEmail,
        }),
    WEBHOOK_REQUIRE_HTTPS_PUBLIC: stage.webhookRequireHttpsPublic ? 'true' : 'false',
    DEFAULT_FRAME_ANCESTORS: stage.defaultFrameAncestors.join(','),
    // Read by Powertools Logger (functions/adapters/observability/powertools-logger.ts): DEBUG to see more, ERROR to see less.
    LOG_LEVEL: 'INFO',
  };
}
