import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../adapters/aws/dynamodb-client';
import { createSecretsClient } from '../adapters/aws/secrets-client';
import { createSesClient } from '../adapters/aws/ses-client';
import { createSqsClient } from '../adapters/aws/sqs-client';
import { SecretsManagerSigningSecretStore } from '../adapters/secret-store';
import { SesAlertMailer } from '../adapters/ses-mailer';
import { HttpWebhookTransport } from '../adapters/webhook-http/http-webhook-transport';
import { FAIRNESS_POLICY } from '../webhooks/endpoint-circuit';
import { RetrySchedule } from '../webhooks/retry-schedule';
import type { SigningSecretStore } from '../webhooks/signing-secret-store';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { BUSY_ENDPOINT_DELIVERIES_PER_MINUTE, EndpointVolume } from '../webhooks/dispatch/endpoint-volume';
import type { WebhookTransport } from '../webhooks/webhook-transport';
import { type BaseDependencies, createLambdaBase, type DependencyOverrides } from './base';
import { lambdaRoot } from './lambda-root';
import { deliveryQueue, slowDeliveryQueue } from './message-queues';
import {
  type DynamoTables,
  deliveryBatchReader,
  deliveryRepository,
  partnerRepository,
  webhookEndpointRepository,
  endpointGate,
  slowPathMoves,
} from './repositories';
import { traced, tracedTransport } from '../adapters/observability/tracing';

export interface WebhookDispatchDependencies extends BaseDependencies {
  readonly webhookDispatcher: WebhookDispatcher;
  /** Cached: where the operator's webhook admin runs in the same process, it must use this one, so a rotated secret is not served from a stale cache. */
  readonly signingSecrets: SigningSecretStore;
  /** The path this dispatcher serves, the dimension of its queue-age metric. */
  readonly dispatchPath: 'fast' | 'slow';
}

export function composeWebhookDispatch(
  base: BaseDependencies,
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient; ses: SESv2Client; secrets: SecretsManagerClient },
  overrides: Pick<DependencyOverrides, 'random'> & {
    readonly wrapTransport?: (transport: WebhookTransport) => WebhookTransport;
    /** Which path this dispatcher serves (docs/webhooks.md, "Fast and slow paths"); the fast one by default. */
    readonly path?: 'fast' | 'slow';
    /** The store another dispatcher of the same process caches (the local stack: both paths and the webhook admin share one). */
    readonly signingSecrets?: SigningSecretStore;
  } = {},
): WebhookDispatchDependencies {
  const { config, clock, logger, metrics } = base;
  const transport = new HttpWebhookTransport({
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    requireHttpsPublic: config.WEBHOOK_REQUIRE_HTTPS_PUBLIC,
  });
  const tables: DynamoTables = { config, db: clients.db };
  const signingSecrets =
    overrides.signingSecrets ?? new SecretsManagerSigningSecretStore(clients.secrets, config.RESOURCE_PREFIX, clock);
  const endpoints = webhookEndpointRepository(tables);
  const budgetMs = config.WEBHOOK_FAST_PATH_BUDGET_MS;
  // A budget not shorter than the deadline (tests that shorten the deadline) leaves every attempt to the fast path.
  const fastBudget = budgetMs < config.WEBHOOK_TIMEOUT_MS ? { budgetMs } : {};
  return {
    ...base,
    signingSecrets,
    dispatchPath: overrides.path ?? 'fast',
    webhookDispatcher: new WebhookDispatcher({
      deliveries: deliveryRepository(tables),
      batchReader: deliveryBatchReader(tables),
      endpoints,
      gate: endpointGate(tables),
      fairness: FAIRNESS_POLICY,
      // Past the transport's deadline by a margin: only a crashed dispatcher's lease ever lapses.
      attemptLeaseSeconds: Math.ceil(config.WEBHOOK_TIMEOUT_MS / 1000) + 30,
      partners: partnerRepository(tables),
      secrets: signingSecrets,
      transport: overrides.wrapTransport ? overrides.wrapTransport(transport) : transport,
      mailer: new SesAlertMailer(clients.ses, config.ALERT_SENDER_EMAIL),
      queue: deliveryQueue(config, clients.sqs),
      path:
        overrides.path === 'slow'
          ? { kind: 'slow', budgetMs }
          : { kind: 'fast', ...fastBudget, slowQueue: slowDeliveryQueue(config, clients.sqs) },
      slowPathMoves: slowPathMoves(tables),
      schedule: new RetrySchedule(config.WEBHOOK_RETRY_DELAYS_S, overrides.random ?? Math.random),
      disableAfterSeconds: config.WEBHOOK_DISABLE_AFTER_S,
      clock,
      logger,
      metrics,
      endpointVolume: new EndpointVolume(BUSY_ENDPOINT_DELIVERIES_PER_MINUTE),
    }),
  };
}

/** The composition of a dispatcher's Lambda, on either path. */
export const dispatcherFromEnvironment = (path: 'fast' | 'slow') =>
  lambdaRoot((config) =>
    composeWebhookDispatch(
      createLambdaBase(config),
      {
        db: createDocumentClient(undefined, traced),
        sqs: createSqsClient(undefined, traced),
        ses: createSesClient(undefined, traced),
        secrets: createSecretsClient(undefined, traced),
      },
      { wrapTransport: tracedTransport, path },
    ),
  );

/** The fast path's dispatcher (the deliveries queue's consumer). */
export const webhookDispatchFromEnvironment = dispatcherFromEnvironment('fast');
