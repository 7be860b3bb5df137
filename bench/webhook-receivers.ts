/**
 * What the webhook benchmarks (fairness, one big partner, the dispatcher's) share: a
 * quiet local stack run as `npm start` runs it, a partner with one organization and an
 * endpoint, and receivers on 127.0.0.1 that report each webhook's order id and lag.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { powertoolsMetrics } from '../functions/adapters/observability/powertools-metrics';
import type { Dependencies } from '../functions/container';
import { jsonLinesLogger } from '../functions/domain/logger';
import { SetupRequest } from '../functions/domain/organizations/setup-request';
import type { PartnerId } from '../functions/domain/partners/partner';
import { METRICS_NAMESPACE } from '../functions/resources/resource-definitions';
import { type LocalStack, startLocalStack } from '../lib/local-runtime/local-stack';
import { startStandIns, type StandIns } from '../lib/local-runtime/stand-ins';
import { MAIN_LOCATION, userFields } from './bench-stack';

export interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

export interface QuietStack {
  readonly stack: LocalStack;
  close(): Promise<void>;
}

/**
 * Its own stand-ins and stack, pollers on. EMF lines are built as deployed and written
 * nowhere (the bench prints its own table); log lines go to `onLogLine` only.
 */
export async function startQuietStack(
  name: string,
  options: { extraEnvironment?: Record<string, string>; onLogLine?: (line: string) => void } = {},
): Promise<QuietStack> {
  const standIns: StandIns = await startStandIns();
  try {
    const resourcePrefix = `${name}${randomUUID().slice(0, 6)}`;
    const stack = await startLocalStack({
      standIns,
      resourcePrefix,
      metrics: powertoolsMetrics({ namespace: METRICS_NAMESPACE, service: resourcePrefix, write: () => undefined }),
      port: 0,
      ...(options.extraEnvironment ? { extraEnvironment: options.extraEnvironment } : {}),
      logger: jsonLinesLogger(options.onLogLine ?? (() => undefined)),
    });
    return {
      stack,
      close: async () => {
        await stack.close();
        await standIns.close();
      },
    };
  } catch (error) {
    await standIns.close();
    throw error;
  }
}

/** A new partner with one organization (set up as the setup route does) and its endpoint at `url`. */
export async function aPartnerWithEndpoint(
  deps: Dependencies,
  names: { partner: string; organization: string; alertEmail: string },
  url: string,
): Promise<{ partnerId: PartnerId; apiKey: string; internalOrgId: string; internalUserId: string }> {
  const { partnerId, apiKey } = await deps.partnerAdmin.createPartner({
    name: names.partner,
    alertEmail: names.alertEmail,
  });
  const id = randomUUID().slice(0, 8);
  const setup = await deps.functions.setup.organizationSetup.setup(
    partnerId,
    SetupRequest.parse({
      internalOrgId: `org-${id}`,
      organizationName: names.organization,
      internalUserId: `user-${id}`,
      user: userFields(id),
      shippingLocations: [MAIN_LOCATION],
    }),
  );
  await deps.webhookAdmin.configureEndpoint({ partnerId, url, events: ['order.created'] });
  return {
    partnerId: partnerId as PartnerId,
    apiKey,
    internalOrgId: setup.organization.internalOrgId,
    internalUserId: setup.profile.internalUserId,
  };
}

/**
 * A receiver that reads each POST's body, reports its order id (undefined when the body
 * is no webhook) and its lag from the event's `timestamp`, then lets `answer` respond (one
 * receiver may serve many endpoints, told apart by the request's path).
 */
export async function startReceiver(
  onPost: (orderId: string | undefined, lagMs: number) => void,
  answer: (res: ServerResponse, req: IncomingMessage) => void,
): Promise<Receiver> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = Date.now();
      let orderId: string | undefined;
      let lagMs = 0;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          timestamp: string;
          data: { order_id: string };
        };
        orderId = body.data.order_id;
        lagMs = arrived - Date.parse(body.timestamp);
      } catch {
        // not a webhook body: counted as a POST only
      }
      onPost(orderId, lagMs);
      answer(res, req);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
