import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RuntimeConfig } from '../config';
import { type Clock, systemClock } from '../domain/clock';
import { jsonLinesLogger, type Logger, redactingLogger } from '../domain/logger';
import type { PaymentProvider } from '../domain/payments/payment-provider';
import type { EmbedBrowserScripts } from '../embed-host/browser-scripts';

/** What every function has, whatever else it does. */
export interface BaseDependencies {
  readonly config: RuntimeConfig;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Replacements the local stack and tests may inject. */
export interface DependencyOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Replaces Math.random for the retry jitter (tests: jitter at its bounds). */
  readonly random?: () => number;
  /** Replaces Stripe (tests: a provider that fails on demand). */
  readonly payments?: PaymentProvider;
  /** The DynamoDB client of the organization repository only (tests: inject failing transactions). */
  readonly organizationsDb?: DynamoDBDocumentClient;
  /** The embed host's browser scripts (the local runtime builds them; a Lambda has them compiled in). */
  readonly embedBrowserScripts?: EmbedBrowserScripts;
}

export const createBase = (config: RuntimeConfig, overrides: DependencyOverrides = {}): BaseDependencies => ({
  config,
  clock: overrides.clock ?? systemClock,
  logger: redactingLogger(overrides.logger ?? jsonLinesLogger()),
});
