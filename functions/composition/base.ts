import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RuntimeConfig } from '../config';
import { type Clock, systemClock } from '../domain/clock';
import { powertoolsLogger } from '../adapters/observability/powertools-logger';
import { powertoolsMetrics } from '../adapters/observability/powertools-metrics';
import { correlatingLogger, jsonLinesLogger, type Logger, redactingLogger } from '../domain/logger';
import type { Metrics } from '../domain/metrics';
import { METRICS_NAMESPACE } from '../resources/resource-definitions';
import type { InvoicingProvider } from '../domain/billing/invoicing-provider';
import type { PaymentProvider } from '../domain/payments/payment-provider';
import type { SalesTaxProvider } from '../domain/tax/sales-tax-provider';
import type { EmbedBrowserScripts } from '../embed-host/browser-scripts';

/** What every function has, whatever else it does. */
export interface BaseDependencies {
  readonly config: RuntimeConfig;
  readonly clock: Clock;
  /** Every line carries the correlation ids of its request or message (domain/correlation.ts); secrets are masked. */
  readonly logger: Logger;
  /** Flushed by each handler at the end of its invocation. */
  readonly metrics: Metrics;
}

/** Replacements the local stack and tests may inject. */
export interface DependencyOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Replaces the EMF metrics on stdout (the local stack: its log file; tests: captured lines or a fake). */
  readonly metrics?: Metrics;
  /** Replaces Math.random for the retry jitter (tests: jitter at its bounds). */
  readonly random?: () => number;
  /** Replaces Stripe (tests: a provider that fails on demand). */
  readonly payments?: PaymentProvider;
  /** Replaces Stripe Tax (tests: a provider that fails on demand). */
  readonly salesTax?: SalesTaxProvider;
  /** Replaces Stripe Invoicing (tests: a provider that fails at a chosen step of issuing). */
  readonly invoicingProvider?: InvoicingProvider;
  /** The DynamoDB client of the organization repository only (tests: inject failing transactions). */
  readonly organizationsDb?: DynamoDBDocumentClient;
  /** The embed host's browser scripts (the local runtime builds them; a Lambda has them compiled in). */
  readonly embedBrowserScripts?: EmbedBrowserScripts;
}

export const createBase = (config: RuntimeConfig, overrides: DependencyOverrides = {}): BaseDependencies => ({
  config,
  clock: overrides.clock ?? systemClock,
  logger: redactingLogger(correlatingLogger(overrides.logger ?? jsonLinesLogger())),
  metrics: overrides.metrics ?? powertoolsMetrics({ namespace: METRICS_NAMESPACE, service: config.RESOURCE_PREFIX }),
});

/** A Lambda's base: Powertools Logger (the Lambda context on every line, `LOG_LEVEL`) and Metrics behind the ports. */
export const createLambdaBase = (config: RuntimeConfig): BaseDependencies =>
  createBase(config, { logger: powertoolsLogger(config.RESOURCE_PREFIX) });
