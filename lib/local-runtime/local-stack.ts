import { createServer, type Server } from 'node:http';
import { createAwsClients } from '../../functions/adapters/aws-clients';
import { loadRuntimeConfig, type RuntimeConfig } from '../../functions/config';
import { createDependencies, type Dependencies, type DependencyOverrides } from '../../functions/container';
import { createEmbedHandler } from '../../functions/handlers/embed';
import { createHandshakeHandler } from '../../functions/handlers/handshake';
import { createOrderFanoutHandler } from '../../functions/handlers/order-fanout';
import { createSetupHandler } from '../../functions/handlers/setup';
import { createWebhookDispatchHandler } from '../../functions/handlers/webhook-dispatch';
import { functionEnvironment } from '../../functions/resources/function-environment';
import { ENVIRONMENTS } from '../../functions/resources/stages';
import { API_ROUTES, EMBED_ROUTES, FUNCTION_TIMEOUT_SECONDS, QUEUES, type QueueName, queueName } from '../../functions/resources/resource-definitions';
import type { HttpLambda } from '../../functions/http/api-context';
import { apiGatewayListener, type LocalPage } from './api-gateway-adapter';
import { checkDependencies } from './dependency-health';
import { provisionLocalResources } from './provision';
import { createQueueConsumer, type QueueConsumer, type SqsLambda } from './queue-poller';
import type { StandIns } from './stand-ins';

export interface LocalStackOptions extends DependencyOverrides {
  readonly standIns: Pick<StandIns, 'endpoints' | 'stripeApiBase'>;
  /** Resource name prefix; tests use a fresh one per file so they never share state. */
  readonly resourcePrefix: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly stripeSecretKey?: string;
  readonly extraEnvironment?: Record<string, string>;
  readonly pages?: readonly LocalPage[];
  /** Poll the queues continuously (default); tests that step consumers by hand turn it off. */
  readonly queuePollers?: boolean;
}

export interface LocalStack {
  readonly url: string;
  readonly config: RuntimeConfig;
  readonly deps: Dependencies;
  readonly queueUrls: Record<QueueName, string>;
  /** The queue consumers (order fan-out, webhook dispatch), running unless `queuePollers: false`. */
  readonly consumers: Record<QueueName, QueueConsumer>;
  close(): Promise<void>;
}

type HttpHandlerFactory = (getDependencies: () => Promise<Dependencies>) => HttpLambda;

const HTTP_HANDLERS: Record<(typeof API_ROUTES | typeof EMBED_ROUTES)[number]['fn'], HttpHandlerFactory> = {
  setup: createSetupHandler,
  handshake: createHandshakeHandler,
  embed: createEmbedHandler,
};

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

  const config = loadRuntimeConfig({
    ...functionEnvironment(ENVIRONMENTS.sandbox, {
      queueUrls,
      resourcePrefix: options.resourcePrefix,
      embedBaseUrl: url,
      local: { stripeApiBase: options.standIns.stripeApiBase, stripeSecretKey: options.stripeSecretKey },
    }),
    ...options.extraEnvironment,
  });
  const deps = createDependencies(config, aws, options);
  const getDependencies = () => Promise.resolve(deps);

  const health: LocalPage = async (req, res) => {
    if (req.url !== '/health') return false;
    const report = await checkDependencies(aws, queueUrls.orderEvents);
    res.writeHead(report.status === 'ok' ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify(report));
    return true;
  };
  const queueHandlers: Record<QueueName, SqsLambda> = {
    orderEvents: createOrderFanoutHandler(getDependencies),
    webhookDeliveries: createWebhookDispatchHandler(getDependencies),
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
        onError: (error) => deps.logger.error({ msg: 'queue poller error', queue: name, error: String(error) }),
      }),
    ]),
  ) as Record<QueueName, QueueConsumer>;
  if (options.queuePollers ?? true) Object.values(consumers).forEach((consumer) => consumer.start());

  server.on(
    'request',
    apiGatewayListener(
      [...API_ROUTES, ...EMBED_ROUTES].map((route) => ({
        method: route.method,
        path: route.path,
        handler: HTTP_HANDLERS[route.fn](getDependencies),
        timeoutSeconds: FUNCTION_TIMEOUT_SECONDS[route.fn],
      })),
      [health, ...(options.pages ?? [])],
    ),
  );

  return {
    url,
    config,
    deps,
    queueUrls,
    consumers,
    close: async () => {
      await Promise.all(Object.values(consumers).map((consumer) => consumer.stop()));
      await new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
    },
  };
}
