/**
 * One big partner (docs/performance.md, "One big partner"): one partner whose receiver
 * answers every POST after `answerMs`, offered `perSecond` order events a second for
 * `seconds`, each published as the order pipeline does (order-events queue) and delivered
 * by the local stack's own pollers: fan-out → webhook-deliveries → dispatcher, as
 * `npm start` runs them. Delivered counts the events whose webhook arrived by the end of a
 * short drain; lag is the time from the event's publication (the body's `timestamp`) to the receiver's 2xx.
 * An untimed warm-up at the same rate comes first: the JIT, DynamoDB Local and the pollers
 * warm up, and the endpoint's adaptive concurrency starts where a busy partner's is.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { PartnerId } from '../functions/domain/partners/partner';
import { powertoolsMetrics } from '../functions/adapters/observability/powertools-metrics';
import { jsonLinesLogger } from '../functions/domain/logger';
import { METRICS_NAMESPACE } from '../functions/resources/resource-definitions';
import { SetupRequest } from '../functions/domain/organizations/setup-request';
import { type LocalStack, startLocalStack } from '../lib/local-runtime/local-stack';
import { startStandIns } from '../lib/local-runtime/stand-ins';
import { MAIN_LOCATION, userFields } from './bench-stack';
import { percentile } from './util';

export interface BigPartnerOptions {
  readonly perSecond: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
  readonly answerMs: number;
  /** How long after the last event its webhook may still arrive. */
  readonly drainMs: number;
}

export interface BigPartnerResult {
  readonly offered: number;
  readonly delivered: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The endpoint's adaptive concurrency at the end, as stored. */
  readonly concurrency: number | undefined;
}

export async function measureBigPartner(options: BigPartnerOptions): Promise<BigPartnerResult> {
  const standIns = await startStandIns();
  let stack: LocalStack;
  try {
    const resourcePrefix = `big${randomUUID().slice(0, 6)}`;
    stack = await startLocalStack({
      standIns,
      resourcePrefix,
      metrics: powertoolsMetrics({ namespace: METRICS_NAMESPACE, service: resourcePrefix, write: () => undefined }),
      port: 0,
      logger: jsonLinesLogger(() => undefined),
    });
  } catch (error) {
    await standIns.close();
    throw error;
  }
  const arrivals = new Map<string, number>(); // order id → lag ms (first arrival)
  const receiver = await startSlowReceiver(options.answerMs, (orderId, lagMs) => {
    if (!arrivals.has(orderId)) arrivals.set(orderId, lagMs);
  });
  try {
    const { deps } = stack;
    const { partnerId } = await deps.partnerAdmin.createPartner({
      name: 'Big partner',
      alertEmail: 'ops@big.partner.example.com',
    });
    const id = randomUUID().slice(0, 8);
    const internalOrgId = `org-${id}`;
    await deps.functions.setup.organizationSetup.setup(
      partnerId,
      SetupRequest.parse({
        internalOrgId,
        organizationName: 'Big DSO',
        internalUserId: `user-${id}`,
        user: userFields(id),
        shippingLocations: [MAIN_LOCATION],
      }),
    );
    await deps.webhookAdmin.configureEndpoint({ partnerId, url: receiver.url, events: ['order.created'] });

    const offer = async (seconds: number): Promise<string[]> => {
      const orderIds: string[] = [];
      const started = Date.now();
      const total = seconds * options.perSecond;
      const publishing: Promise<unknown>[] = [];
      for (let n = 0; n < total; n += 1) {
        const due = started + (n * 1000) / options.perSecond;
        await new Promise((done) => setTimeout(done, Math.max(0, due - Date.now())));
        const orderId = randomUUID();
        orderIds.push(orderId);
        publishing.push(
          deps.orderEvents
            .publish({
              partnerId: partnerId as PartnerId,
              event: 'order.created',
              data: orderCreatedData(internalOrgId, orderId),
            })
            .catch(() => undefined),
        );
      }
      await Promise.all(publishing);
      const drainUntil = Date.now() + options.drainMs;
      while (Date.now() < drainUntil && orderIds.some((orderId) => !arrivals.has(orderId)))
        await new Promise((done) => setTimeout(done, 250));
      return orderIds;
    };

    await offer(options.warmUpSeconds);
    const orderIds = await offer(options.seconds);
    const lags = orderIds.flatMap((orderId) => (arrivals.has(orderId) ? [arrivals.get(orderId) as number] : []));
    const endpoint = await deps.webhookEndpoints.get(partnerId as PartnerId);
    return {
      offered: orderIds.length,
      delivered: lags.length,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
      maxMs: lags.length ? Math.max(...lags) : 0,
      concurrency: endpoint?.circuit?.concurrency,
    };
  } finally {
    await receiver.close();
    await stack.close();
    await standIns.close();
  }
}

/** order.created data as the contract shows it. */
const orderCreatedData = (partnerOrgId: string, orderId: string) => ({
  order_id: orderId,
  partner_org_id: partnerOrgId,
  user_email: 'ada@acme.test',
  status: 'pending',
  items: [{ product_id: 'GLV-NIT-M-100', name: 'Nitrile gloves (M)', quantity: 2, price: 12.5 }],
  subtotal: 25,
  tax: 2.06,
  shipping: 5,
  total: 32.06,
  payment_method: 'card',
  shipping_address: { line1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' },
});

/** A receiver on 127.0.0.1 that answers 204 after `answerMs`, and reports each webhook's order id and lag as it answers. */
async function startSlowReceiver(
  answerMs: number,
  onPost: (orderId: string, lagMs: number) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(204).end();
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            timestamp: string;
            data: { order_id: string };
          };
          onPost(body.data.order_id, Date.now() - Date.parse(body.timestamp));
        } catch {
          // not a webhook body
        }
      }, answerMs);
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
