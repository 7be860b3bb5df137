/**
 * Per-environment configuration, typed, in one place. Everything environment-specific
 * lives here; `functions/` only sees it through the Lambda environment variables the
 * stack derives from it.
 */

import type { TableName } from './resource-definitions';

export type Stage = 'production' | 'sandbox';
export const STAGES: readonly Stage[] = ['production', 'sandbox'];

/** How a deploy reaches a function's callers (lib/infrastructure/constructs/deployments.ts, docs/operations.md). */
export type DeploymentStyle = 'canary-10-percent-5-minutes' | 'all-at-once';

/**
 * A table brought back from a backup into a new name (docs/operations.md, "Restoring a table"):
 * the stack uses it instead of creating `${prefix}-${suffix}`.
 */
export interface RestoredTable {
  /** The restored table's name, e.g. `embed-production-orders-r20261128`. */
  readonly tableName: string;
  /** Its stream's ARN (`aws dynamodb describe-table … --query Table.LatestStreamArn`): required for a table with a stream (orders). */
  readonly streamArn?: string;
}

export interface EnvironmentConfig {
  readonly stage: Stage;
  /** Prefix of every physical resource name, so the two stacks never share anything. */
  readonly resourcePrefix: string;
  /** `sk_live_` in production, `sk_test_` in sandbox; keys of the other prefix get 401. */
  readonly apiKeyPrefix: 'sk_live_' | 'sk_test_';
  /** `{base_url}` / `{sandbox_base_url}` of the contract. */
  readonly apiDomainName: string;
  /** `{embed_host}` of the contract. */
  readonly embedDomainName: string;
  /** Secrets Manager name of the Stripe secret key (sandbox holds a test-mode key). */
  readonly stripeSecretName: string;
  /** Secrets Manager name of Stripe's endpoint secret (`whsec_…`) for `POST /v1/stripe/events`. */
  readonly stripeWebhookSecretName: string;
  /** SES identity that webhook failure alerts are sent from. */
  readonly alertSenderEmail: string;
  /** Where CloudWatch alarms notify the operators. */
  readonly operatorAlarmEmail: string;
  /** Webhook URLs must be HTTPS and resolve to public addresses. */
  readonly webhookRequireHttpsPublic: boolean;
  /** Frame ancestors allowed for partners with no origins configured. */
  readonly defaultFrameAncestors: readonly string[];
  /** Production data survives stack deletion and cannot be deleted by accident. */
  readonly retainData: boolean;
  /** Days the API access logs are kept. */
  readonly logRetentionDays: number;
  /** A new version takes 10 % of invocations for 5 minutes before all, or all at once; both roll back on alarms. */
  readonly deploymentStyle: DeploymentStyle;
  /** Production tables are also in an AWS Backup plan (daily kept 35 days, monthly kept a year). */
  readonly backupTables: boolean;
  /**
   * Tables restored into a new name that this stage uses instead of its own (docs/operations.md,
   * "Restoring a table"). The stack imports each one rather than creating it, names it in every
   * function's environment and grants as before; the operator CLI reads it from here too.
   */
  readonly restoredTables?: Readonly<Partial<Record<TableName, RestoredTable>>>;
}

export const ENVIRONMENTS: Readonly<Record<Stage, EnvironmentConfig>> = {
  production: {
    stage: 'production',
    resourcePrefix: 'embed-production',
    apiKeyPrefix: 'sk_live_',
    apiDomainName: 'api.example-procurement.com',
    embedDomainName: 'embed.example-procurement.com',
    stripeSecretName: 'embed-production/stripe-secret-key',
    stripeWebhookSecretName: 'embed-production/stripe-webhook-secret',
    alertSenderEmail: 'webhooks@example-procurement.com',
    operatorAlarmEmail: 'oncall@example-procurement.com',
    webhookRequireHttpsPublic: true,
    defaultFrameAncestors: [],
    retainData: true,
    logRetentionDays: 365,
    deploymentStyle: 'canary-10-percent-5-minutes',
    backupTables: true,
  },
  sandbox: {
    stage: 'sandbox',
    resourcePrefix: 'embed-sandbox',
    apiKeyPrefix: 'sk_test_',
    apiDomainName: 'sandbox-api.example-procurement.com',
    embedDomainName: 'sandbox-embed.example-procurement.com',
    stripeSecretName: 'embed-sandbox/stripe-secret-key',
    stripeWebhookSecretName: 'embed-sandbox/stripe-webhook-secret',
    alertSenderEmail: 'webhooks-sandbox@example-procurement.com',
    operatorAlarmEmail: 'oncall@example-procurement.com',
    webhookRequireHttpsPublic: false,
    defaultFrameAncestors: ['http://localhost:*', 'http://127.0.0.1:*'],
    retainData: false,
    logRetentionDays: 30,
    deploymentStyle: 'all-at-once',
    backupTables: false,
  },
};
