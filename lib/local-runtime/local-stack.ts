import { createServer, type Server } from 'node:http';
import { createAwsClients } from '../../functions/adapters/aws-clients';
import { loadRuntimeConfig, type RuntimeConfig } from '../../functions/config';
import {
  createDependencies,
  type Dependencies,
  type DependencyOverrides,
  type FunctionDependencies,
} from '../../functions/container';
import { type ApprovalExpiryResult, createApprovalExpiryHandler } from '../../functions/lambdas/approval-expiry';
import { createEmbedHandler } from '../../functions/lambdas/embed';
import { createHandshakeHandler } from '../../functions/lambdas/handshake';
import { createOrdersApiHandler } from '../../functions/lambdas/orders-api';
import { createOrderFanoutHandler } from '../../functions/lambdas/order-fanout';
import { createOrderOutboxRelayHandler } from '../../functions/lambdas/order-outbox-relay';
import { createSetupHandler } from '../../functions/lambdas/setup';
import { createWebhookDispatchHandler } from '../../functions/lambdas/webhook-dispatch';
import { createInvoicingHandler } from '../../functions/lambdas/invoicing';
import { createInvoiceSweepHandler } from '../../functions/lambdas/invoice-sweep';
import type { InvoiceSweepResult } from '../../functions/domain/billing/invoice-sweep';
import { createWebhookTestHandler } from '../../functions/lambdas/webhook-test';
import { createWebhooksApiHandler } from '../../functions/lambdas/webhooks-api';
import { functionEnvironment, LOCAL_STRIPE_SECRET_KEY } from '../../functions/resources/function-environment';
import { routePath } from '../../functions/route-names';
import { ENVIRONMENTS } from '../../functions/resources/stages';
import {
  APPROVAL_EXPIRY_SWEEP_MINUTES,
  FUNCTION_TIMEOUT_SECONDS,
  LOCAL_INVOICE_SWEEP_MINUTES,
  ORDER_OUTBOX_BATCH_SIZE,
  QUEUES,
  type QueueName,
  queueName,
  tableName,
} from '../../functions/resources/resource-definitions';
import { type Route, ROUTES, routesOn } from '../../functions/routes';
import type { Stage } from '../../functions/resources/stages';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { clientOptions } from '../../functions/adapters/aws/client-options';
import type { HttpLambda } from '../../functions/http/http-context';
import { apiGatewayListener, type LocalPage, type LocalRoute } from './api-gateway-adapter';
import { checkDependencies } from './dependency-health';
import { provisionLocalResources } from './provision';
import { createQueueConsumer, type QueueConsumer, type SqsLambda } from './queue-poller';
import { queuesDrained } from './queues-drained';
import { type ScheduledJob, scheduledJob } from './scheduled-job';
import { seedCatalog } from './seed';
import { createStreamConsumer, type StreamConsumer } from './stream-poller';
import type { StandIns } from './stand-ins';
import { buildEmbedBrowserScripts } from '../browser-bundling/embed-browser-scripts';

/**
 * Batches handled at once for a queue whose Lambda scales by itself (the order fan-out): one
 * loop alone, a few round trips per batch, falls behind 50 events/s on this stack, where
 * Lambda would run more invocations.
 */
const LAMBDA_SCALING_STAND_IN = 4;

export interface LocalStackOptions extends DependencyOverrides {
  readonly standIns: Pick<StandIns, 'endpoints' | 'stripeApiBase'>;
  /** Resource name prefix; tests use a fresh one per file so they never share state. */
  readonly resourcePrefix: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly stripeSecretKey?: string;
  readonly extraEnvironment?: Record<string, string>;
  readonly pages?: readonly LocalPage[];
  /**
   * Poll the queues and the orders stream continuously, and run the scheduled jobs on
   * their schedule (default); tests that step consumers and jobs by hand turn it off.
   */
  readonly queuePollers?: boolean;
  /**
   * The data directory (`npm start`: `.local/`): the orders stream's reader keeps its
   * position there, so a restart resumes after the last record it handled. Without it,
   * the position lives in memory and a new stack reads the stream from its oldest record.
   */
  readonly dataDir?: string;
  /** How often the invoice sweep runs: LOCAL_INVOICE_SWEEP_MINUTES unless `npm start` is told otherwise (LOCAL_INVOICE_SWEEP_S). */
  readonly invoiceSweepIntervalSeconds?: number;
}

export interface LocalStack {
  readonly url: string;
  readonly config: RuntimeConfig;
  readonly deps: Dependencies;
  readonly queueUrls: Record<QueueName, string>;
  /** The queue consumers (order fan-out, webhook dispatch), running unless `queuePollers: false`. */
  readonly consumers: Record<QueueName, QueueConsumer>;
  /** The orders stream's consumer (the outbox relay), running unless `queuePollers: false`. */
  readonly orderOutbox: StreamConsumer;
  /** The approval expiry sweep, run as its EventBridge schedule runs the Lambda (every APPROVAL_EXPIRY_SWEEP_MINUTES), unless `queuePollers: false`. */
  readonly approvalExpiry: ScheduledJob<ApprovalExpiryResult>;
  /** The invoice sweep, run at start and every `invoiceSweepIntervalSeconds` (AWS: every INVOICE_SWEEP_MINUTES), unless `queuePollers: false`. */
  readonly invoiceSweep: ScheduledJob<InvoiceSweepResult>;
  close(): Promise<void>;
}

/** The orders stream reader's position, in the data directory. */
const ORDER_OUTBOX_POSITION_FILE = 'orders-stream-position.json';

/** As a Lambda resolves its dependencies once per cold start; here they are built already. */
const built =
  <D>(dependencies: D) =>
  (): Promise<D> =>
    Promise.resolve(dependencies);

/** Each route's function, served from that function's own dependencies, as in AWS. */
const HTTP_HANDLERS: Record<Route['fn'], (functions: FunctionDependencies) => HttpLambda> = {
  setup: (functions) => createSetupHandler(built(functions.setup)),
  handshake: (functions) => createHandshakeHandler(built(functions.handshake)),
  embed: (functions) => createEmbedHandler(built(functions.embed)),
  ordersApi: (functions) => createOrdersApiHandler(built(functions.ordersApi)),
  webhookTest: (functions) => createWebhookTestHandler(built(functions.webhookTest)),
  webhooksApi: (functions) => createWebhooksApiHandler(built(functions.webhooksApi)),
};

/**
 * The local gateway's routes: a stage's routes of the route table (both hosts on one
 * port), each served by its function, built once per function as a Lambda is.
 */
export function localGatewayRoutes(
  stage: Stage,
  functionHandler: (fn: Route['fn']) => HttpLambda,
  table: readonly Route[] = ROUTES,
): LocalRoute[] {
  const handlers = new Map<Route['fn'], HttpLambda>();
  const handlerOf = (fn: Route['fn']) => handlers.get(fn) ?? handlers.set(fn, functionHandler(fn)).get(fn)!;
  return routesOn(stage, table).map((route) => ({
    method: route.method,
    path: route.path,
    handler: handlerOf(route.fn),
    timeoutSeconds: FUNCTION_TIMEOUT_SECONDS[route.fn],
  }));
}

/**
 * The service on the stand-ins: the sandbox configuration, the resources of
 * `functions/resources/resource-definitions.ts`, and the Lambda handlers behind an API Gateway v2 adapter.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const aws = createAwsClients(options.standIns.endpoints);
  const queueUrls = await provisionLocalResources(aws, options.resourcePrefix);

  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(options.port, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://localhost:${port}`;

  const stripeSecretKey = options.stripeSecretKey ?? LOCAL_STRIPE_SECRET_KEY;
  // As an operator does for a deployed stack (docs/operations.md): the route is registered with Stripe, and the
  // endpoint secret it returns verifies the events the stand-in signs.
  const stripeEndpoint: Record<string, string> = {
    STRIPE_WEBHOOK_SECRET: await registerStripeEventsEndpoint(
      options.standIns.stripeApiBase,
      stripeSecretKey,
      `${url}${routePath('stripe-events', {})}`,
    ),
  };
  const config = loadRuntimeConfig({
    ...functionEnvironment(ENVIRONMENTS.sandbox, {
      queueUrls,
      resourcePrefix: options.resourcePrefix,
      embedBaseUrl: url,
      local: { stripeApiBase: options.standIns.stripeApiBase, stripeSecretKey },
    }),
    ...stripeEndpoint,
    ...options.extraEnvironment,
  });
  // Lambdas have the browser scripts compiled in; here they are built from source at start (about 50 ms).
  const deps = createDependencies(config, aws, { embedBrowserScripts: buildEmbedBrowserScripts(), ...options });

  const health: LocalPage = async (req, res) => {
    if (req.url !== '/health') return false;
    const report = await checkDependencies(aws, queueUrls.orderEvents);
    res
      .writeHead(report.status === 'ok' ? 200 : 503, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(report));
    return true;
  };
  const queueHandlers: Record<QueueName, SqsLambda> = {
    orderEvents: createOrderFanoutHandler(built(deps.functions.orderFanout)),
    webhookDeliveries: createWebhookDispatchHandler(built(deps.functions.webhookDispatch)),
    webhookSlowDeliveries: createWebhookDispatchHandler(built(deps.functions.webhookSlowDispatch)),
    invoicing: createInvoicingHandler(built(deps.functions.invoicing)),
  };
  const consumers = Object.fromEntries(
    (Object.keys(QUEUES) as QueueName[]).map((name) => [
      name,
      createQueueConsumer({
        sqs: aws.sqs,
        queueUrl: queueUrls[name],
        queueArn: `arn:aws:sqs:us-east-1:000000000000:${queueName(options.resourcePrefix, name)}`,
        handler: queueHandlers[name],
        batchSize: QUEUES[name].consumerBatchSize,
        concurrency: QUEUES[name].consumerConcurrency ?? LAMBDA_SCALING_STAND_IN,
        onError: (error) => deps.logger.error({ msg: 'queue poller error', queue: name, error: String(error) }),
      }),
    ]),
  ) as Record<QueueName, QueueConsumer>;
  const orderOutbox = createStreamConsumer({
    db: aws.db as unknown as DynamoDBClient,
    streams: new DynamoDBStreamsClient(clientOptions(options.standIns.endpoints.dynamodb)),
    tableName: tableName(options.resourcePrefix, 'orders'),
    handler: createOrderOutboxRelayHandler(built(deps.functions.orderOutboxRelay)),
    batchSize: ORDER_OUTBOX_BATCH_SIZE,
    onError: (error) => deps.logger.error({ msg: 'stream poller error', table: 'orders', error: String(error) }),
    ...(options.dataDir
      ? {
          positionFile: join(options.dataDir, ORDER_OUTBOX_POSITION_FILE),
          handedOn: () => queuesDrained(aws.sqs, [queueUrls.orderEvents, queueUrls.invoicing]),
        }
      : {}),
  });
  const expireApprovals = createApprovalExpiryHandler(built(deps.functions.approvalExpiry));
  // The handler reads the injected clock, as it reads the system clock on Lambda; the event only names the time.
  const approvalExpiry = scheduledJob(() => expireApprovals({ time: deps.clock.now().toISOString() }), {
    intervalMs: APPROVAL_EXPIRY_SWEEP_MINUTES * 60_000,
    onError: (error) => deps.logger.error({ msg: 'approval expiry sweep failed', error: String(error) }),
  });
  const sweepInvoices = createInvoiceSweepHandler(built(deps.functions.invoiceSweep));
  // Every minute rather than AWS's five: a stack killed mid-shipment invoices what it missed within two minutes of its restart.
  const invoiceSweep = scheduledJob(() => sweepInvoices({ time: deps.clock.now().toISOString() }), {
    intervalMs: (options.invoiceSweepIntervalSeconds ?? LOCAL_INVOICE_SWEEP_MINUTES * 60) * 1000,
    onError: (error) => deps.logger.error({ msg: 'invoice sweep failed', error: String(error) }),
  });
  await seedCatalog(deps);
  if (options.queuePollers ?? true) {
    Object.values(consumers).forEach((consumer) => consumer.start());
    orderOutbox.start();
    approvalExpiry.start();
    invoiceSweep.start();
  }

  server.on(
    'request',
    apiGatewayListener(
      localGatewayRoutes(config.STAGE, (fn) => HTTP_HANDLERS[fn](deps.functions)),
      [health, ...(options.pages ?? [])],
    ),
  );

  return {
    url,
    config,
    deps,
    queueUrls,
    consumers,
    orderOutbox,
    approvalExpiry,
    invoiceSweep,
    close: async () => {
      await Promise.all(
        [...Object.values(consumers), orderOutbox, approvalExpiry, invoiceSweep].map((consumer) => consumer.stop()),
      );
      await new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
    },
  };
}

/** Registers the stack's Stripe route with the Stripe stand-in; its answer holds the endpoint secret (`whsec_…`). */
async function registerStripeEventsEndpoint(stripeApiBase: string, secretKey: string, url: string): Promise<string> {
  const response = await fetch(`${stripeApiBase}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ url, 'enabled_events[]': 'invoice.*' }).toString(),
  });
  if (!response.ok) throw new Error(`The Stripe stand-in refused the events endpoint (${response.status})`);
  const { secret } = (await response.json()) as { secret?: unknown };
  if (typeof secret !== 'string' || !secret.startsWith('whsec_'))
    throw new Error('The Stripe stand-in answered no endpoint secret');
  return secret;
}
