/**
 * Fair delivery under load (docs/performance.md, "Fairness"): 50 partners with receivers
 * on 127.0.0.1 (40 healthy, 5 that never answer, 5 that answer 500), each placing orders
 * at a steady rate through the sandbox order API, so every webhook goes the real way:
 * order and outbox committed → stream → relay → order-events → fan-out →
 * webhook-deliveries → dispatcher, the local stack's own pollers throughout (as `npm start`).
 *
 * Two phases in one run, the same stack and the same load (all 50 partners place orders in
 * both), after an untimed warm-up (the JIT, DynamoDB Local and the pollers warm up for tens
 * of seconds): first the 10 "bad" receivers answer 204 like the others ("without"), then
 * they misbehave ("with"). So the two phases differ only in how those 10 receivers answer. Each healthy webhook's lag is the time from its order's change
 * (the body's `timestamp`) to its arrival at the receiver. The retry ladder is shortened
 * (WEBHOOK_RETRY_DELAYS_S = 5 s each) so the bad endpoints retry, open their circuits and
 * probe within the run; the 30 s attempt timeout is the contract's.
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
import { inParallel, percentile } from './util';

type ReceiverKind = 'healthy' | 'never-answers' | 'answers-500';

export interface FairnessOptions {
  readonly healthy: number;
  readonly neverAnswers: number;
  readonly answers500: number;
  /** Seconds each phase places orders. */
  readonly seconds: number;
  /** Each partner places one order every this many milliseconds (its start offset is random). */
  readonly orderIntervalMs: number;
}

export interface PhaseResult {
  readonly phase: 'without bad receivers' | 'with bad receivers';
  readonly ordersPlaced: number;
  readonly healthyReceived: number;
  /** Healthy partners' orders whose webhook had not arrived when the phase's drain ended. */
  readonly healthyMissing: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** POSTs received by all receivers per second of the phase (attempts that reached a receiver). */
  readonly attemptsPerSecond: number;
  readonly circuitsOpened: number;
  readonly circuitsClosed: number;
}

interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

const RETRY_DELAYS = '5,5,5,5,5,5';
/** How long after a phase's last order its healthy webhooks may still arrive. */
const DRAIN_MS = 20_000;

export async function measureFairness(options: FairnessOptions): Promise<PhaseResult[]> {
  const standIns = await startStandIns();
  const circuitLines: { msg: string; at: number }[] = [];
  let stack: LocalStack;
  try {
    const resourcePrefix = `fair${randomUUID().slice(0, 6)}`;
    stack = await startLocalStack({
      standIns,
      resourcePrefix,
      // EMF lines are built as deployed, and written nowhere: the bench prints its own table.
      metrics: powertoolsMetrics({ namespace: METRICS_NAMESPACE, service: resourcePrefix, write: () => undefined }),
      port: 0,
      extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: RETRY_DELAYS },
      logger: jsonLinesLogger((line) => {
        if (line.includes('webhook_circuit_')) circuitLines.push({ msg: JSON.parse(line).msg, at: Date.now() });
      }),
    });
  } catch (error) {
    await standIns.close();
    throw error;
  }
  const receivers: Receiver[] = [];
  /** Every POST any receiver got, with its time; healthy ones with the order's lag. */
  const posts: number[] = [];
  const healthyArrivals = new Map<string, number>(); // order id → lag ms (first arrival)
  /** Whether the bad receivers misbehave now; before, they answer like the healthy ones. */
  const misbehaving = { on: false };
  try {
    const { deps } = stack;
    const kinds: ReceiverKind[] = [
      ...Array<ReceiverKind>(options.healthy).fill('healthy'),
      ...Array<ReceiverKind>(options.neverAnswers).fill('never-answers'),
      ...Array<ReceiverKind>(options.answers500).fill('answers-500'),
    ];
    const partners = await inParallel(kinds, 4, async (kind, index) => {
      const receiver = await startReceiver(
        () => (misbehaving.on ? kind : 'healthy'),
        (orderId, lagMs) => {
          posts.push(Date.now());
          if (kind === 'healthy' && orderId && !healthyArrivals.has(orderId)) healthyArrivals.set(orderId, lagMs);
        },
      );
      receivers.push(receiver);
      const { partnerId, apiKey } = await deps.partnerAdmin.createPartner({
        name: `Fairness ${kind} ${index}`,
        alertEmail: `ops${index}@partner.example.com`,
      });
      const id = randomUUID().slice(0, 8);
      const setup = await deps.functions.setup.organizationSetup.setup(
        partnerId,
        SetupRequest.parse({
          internalOrgId: `org-${id}`,
          organizationName: 'Acme Dental',
          internalUserId: `user-${id}`,
          user: userFields(id),
          shippingLocations: [MAIN_LOCATION],
        }),
      );
      await deps.webhookAdmin.configureEndpoint({ partnerId, url: receiver.url, events: ['order.created'] });
      return { kind, partnerId: partnerId as PartnerId, apiKey, internalUserId: setup.profile.internalUserId };
    });

    const results: PhaseResult[] = [];
    for (const phase of ['warm-up', 'without bad receivers', 'with bad receivers'] as const) {
      const sending = partners;
      misbehaving.on = phase === 'with bad receivers';
      const placed = new Map<string, ReceiverKind>();
      const postsBefore = posts.length;
      const circuitsBefore = circuitLines.length;
      const started = Date.now();
      const stopAt = started + options.seconds * 1000;
      await Promise.all(
        sending.map(async (partner) => {
          let next = started + Math.random() * options.orderIntervalMs;
          while (next < stopAt) {
            await new Promise((done) => setTimeout(done, Math.max(0, next - Date.now())));
            next += options.orderIntervalMs;
            const response = await fetch(`${stack.url}/v1/sandbox/orders`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${partner.apiKey}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({
                internal_user_id: partner.internalUserId,
                items: [{ product_id: 'GLV-NIT-M-100', quantity: 1 }],
              }),
            }).catch(() => undefined);
            if (response?.status === 201)
              placed.set(((await response.json()) as { order: { id: string } }).order.id, partner.kind);
            else await response?.text();
          }
        }),
      );
      const healthyOrders = [...placed].filter(([, kind]) => kind === 'healthy').map(([orderId]) => orderId);
      const drainUntil = Date.now() + DRAIN_MS;
      while (Date.now() < drainUntil && healthyOrders.some((orderId) => !healthyArrivals.has(orderId))) {
        await new Promise((done) => setTimeout(done, 250));
      }
      const elapsedSeconds = (Date.now() - started) / 1000;
      const lags = healthyOrders.flatMap((orderId) =>
        healthyArrivals.has(orderId) ? [healthyArrivals.get(orderId) as number] : [],
      );
      const phaseCircuits = circuitLines.slice(circuitsBefore);
      if (phase === 'warm-up') continue;
      results.push({
        phase,
        ordersPlaced: placed.size,
        healthyReceived: lags.length,
        healthyMissing: healthyOrders.length - lags.length,
        p50Ms: percentile(lags, 50),
        p99Ms: percentile(lags, 99),
        maxMs: Math.max(...lags),
        attemptsPerSecond: (posts.length - postsBefore) / elapsedSeconds,
        circuitsOpened: phaseCircuits.filter((line) => line.msg === 'webhook_circuit_opened').length,
        circuitsClosed: phaseCircuits.filter((line) => line.msg === 'webhook_circuit_closed').length,
      });
    }
    return results;
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await stack.close();
    await standIns.close();
  }
}

/** A receiver on 127.0.0.1: answers 204, never answers, or answers 500; reports each POST's order id and lag. */
async function startReceiver(
  kindNow: () => ReceiverKind,
  onPost: (orderId: string | undefined, lagMs: number) => void,
): Promise<Receiver> {
  const server: Server = createServer((req, res) => {
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
      const kind = kindNow();
      if (kind === 'never-answers') return;
      res.writeHead(kind === 'healthy' ? 204 : 500).end();
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
