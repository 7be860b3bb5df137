/**
 * A thousand partners (docs/performance.md, "A thousand partners"; issue 47): 1,000 partners,
 * each with an organization and an endpoint (provisioned as the fairness bench does), order
 * through the sandbox order API of a local stack run as `npm start` runs it, so every webhook
 * goes the whole way (outbox → stream → relay → fan-out → fast path → receiver). One
 * receiver on 127.0.0.1 serves all thousand endpoints, told apart by path.
 *
 * After an untimed warm-up, one phase with every receiver answering 204 (the baseline), then,
 * at one moment, 100 receivers start hanging and 100 start answering 500 for the second phase:
 * the same load, the same stack. Measured per phase: healthy partners' lag (order change → 2xx),
 * healthy deliveries a second, the DynamoDB and SQS requests of the whole pipeline per 1,000
 * webhooks delivered; across both, the slow path's depth every few seconds. Retries every 5 s
 * (WEBHOOK_RETRY_DELAYS_S) so the failing endpoints retry and open circuits within the run.
 */
import type { IncomingMessage } from 'node:http';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { PartnerId } from '../functions/domain/partners/partner';
import { countRequests, type RequestCount } from './request-counter';
import { inParallel, percentile } from './util';
import { aPartnerWithEndpoint, startQuietStack, startReceiver } from './webhook-receivers';

type Kind = 'healthy' | 'hangs' | 'answers-500';

export interface ThousandOptions {
  readonly partners: number;
  readonly hanging: number;
  readonly failing: number;
  /** Orders a second over all partners (each partner in turn, shuffled). */
  readonly ordersPerSecond: number;
  readonly warmUpSeconds: number;
  /** Seconds each measured phase places orders. */
  readonly seconds: number;
}

export interface ThousandPhase {
  readonly phase: 'baseline' | 'with sick receivers';
  readonly ordersPlaced: number;
  readonly healthyReceived: number;
  readonly healthyMissing: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Webhooks 2xx'd by healthy receivers per second of the phase's orders. */
  readonly healthyPerSecond: number;
  /** Every webhook 2xx'd during the phase and its drain, and the requests made meanwhile. */
  readonly delivered: number;
  readonly requests: RequestCount;
}

interface DepthSample {
  /** Seconds since the sick receivers started misbehaving (negative: the baseline). */
  readonly atSeconds: number;
  readonly slowVisible: number;
  readonly slowInFlight: number;
  readonly fastVisible: number;
}

export interface ThousandResult {
  readonly provisionSeconds: number;
  readonly phases: ThousandPhase[];
  readonly slowPathDepth: DepthSample[];
  /** Of the sick endpoints, how many were on the slow path / had an open circuit at the end. */
  readonly sickOnSlowPath: number;
  readonly sickCircuitsOpen: number;
}

/** How long after a phase's last order its healthy webhooks may still arrive. */
const DRAIN_MS = 20_000;
const DEPTH_EVERY_MS = 5000;
const RETRY_DELAYS = '5,5,5,5,5,5';

export async function measureThousand(options: ThousandOptions): Promise<ThousandResult> {
  const { stack, close } = await startQuietStack('thousand', {
    extraEnvironment: { WEBHOOK_RETRY_DELAYS_S: RETRY_DELAYS },
  });
  const misbehaving = { on: false };
  const kinds: Kind[] = Array.from({ length: options.partners }, (_, index) =>
    index < options.hanging ? 'hangs' : index < options.hanging + options.failing ? 'answers-500' : 'healthy',
  );
  const healthyArrivals = new Map<string, number>(); // order id → lag ms (first arrival)
  let answered2xx = 0;
  const receiver = await startReceiver(
    (orderId, lagMs) => {
      if (orderId && !healthyArrivals.has(orderId)) healthyArrivals.set(orderId, lagMs);
    },
    (res, req: IncomingMessage) => {
      const kind = kinds[Number(/\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? -1)] ?? 'healthy';
      const now = misbehaving.on ? kind : 'healthy';
      if (now === 'hangs') return;
      if (now === 'healthy') answered2xx += 1;
      res.writeHead(now === 'healthy' ? 204 : 500).end();
    },
  );
  const sampling: { timer?: NodeJS.Timeout } = {};
  const counter = countRequests(stack.deps.aws);
  try {
    const { deps } = stack;
    const provisionStarted = Date.now();
    const partners = await inParallel(kinds, 8, async (kind, index) => {
      const partner = await aPartnerWithEndpoint(
        deps,
        { partner: `Thousand ${kind} ${index}`, organization: 'Acme Dental', alertEmail: `ops${index}@p.example.com` },
        `${receiver.url}/p${index}`,
      );
      return { kind, ...partner };
    });
    const provisionSeconds = (Date.now() - provisionStarted) / 1000;
    const shuffled = [...partners].sort(() => Math.random() - 0.5);

    const samples: (Omit<DepthSample, 'atSeconds'> & { at: number })[] = [];
    let sickSince = 0;
    const sample = async () => {
      const depth = async (url: string) =>
        (
          await deps.aws.sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: url,
              AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
            }),
          )
        ).Attributes ?? {};
      const [slow, fast] = await Promise.all([
        depth(stack.queueUrls.webhookSlowDeliveries),
        depth(stack.queueUrls.webhookDeliveries),
      ]);
      samples.push({
        at: Date.now(),
        slowVisible: Number(slow.ApproximateNumberOfMessages ?? 0),
        slowInFlight: Number(slow.ApproximateNumberOfMessagesNotVisible ?? 0),
        fastVisible: Number(fast.ApproximateNumberOfMessages ?? 0),
      });
    };

    let turn = 0;
    const phases: ThousandPhase[] = [];
    for (const phase of ['warm-up', 'baseline', 'with sick receivers'] as const) {
      const seconds = phase === 'warm-up' ? options.warmUpSeconds : options.seconds;
      if (phase === 'with sick receivers') {
        misbehaving.on = true;
        sickSince = Date.now();
      }
      if (phase === 'baseline') {
        // The sampler's own requests are few (two a sample) and counted like the rest.
        sampling.timer = setInterval(() => void sample().catch(() => undefined), DEPTH_EVERY_MS);
      }
      counter.take();
      const answeredBefore = answered2xx;
      const placed = new Map<string, Kind>();
      const started = Date.now();
      const total = Math.round(seconds * options.ordersPerSecond);
      const placing: Promise<void>[] = [];
      for (let n = 0; n < total; n += 1) {
        await new Promise((done) =>
          setTimeout(done, Math.max(0, started + (n * 1000) / options.ordersPerSecond - Date.now())),
        );
        const partner = shuffled[turn % shuffled.length] as (typeof shuffled)[number];
        turn += 1;
        placing.push(
          fetch(`${stack.url}/v1/sandbox/orders`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${partner.apiKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              internal_user_id: partner.internalUserId,
              items: [{ product_id: 'GLV-NIT-M-100', quantity: 1 }],
            }),
          })
            .then(async (response) => {
              if (response.status === 201)
                placed.set(((await response.json()) as { order: { id: string } }).order.id, partner.kind);
              else await response.text();
            })
            .catch(() => undefined),
        );
      }
      await Promise.all(placing);
      const placedSeconds = (Date.now() - started) / 1000;
      const healthyOrders = [...placed].filter(([, kind]) => kind === 'healthy').map(([orderId]) => orderId);
      const drainUntil = Date.now() + DRAIN_MS;
      while (Date.now() < drainUntil && healthyOrders.some((orderId) => !healthyArrivals.has(orderId)))
        await new Promise((done) => setTimeout(done, 250));
      if (phase === 'warm-up') continue;
      const lags = healthyOrders.flatMap((orderId) =>
        healthyArrivals.has(orderId) ? [healthyArrivals.get(orderId) as number] : [],
      );
      phases.push({
        phase,
        ordersPlaced: placed.size,
        healthyReceived: lags.length,
        healthyMissing: healthyOrders.length - lags.length,
        p50Ms: percentile(lags, 50),
        p99Ms: percentile(lags, 99),
        maxMs: lags.length ? Math.max(...lags) : 0,
        healthyPerSecond: lags.length / placedSeconds,
        delivered: answered2xx - answeredBefore,
        requests: counter.take(),
      });
    }
    clearInterval(sampling.timer);
    const sick = partners.filter((partner) => partner.kind !== 'healthy');
    const endpoints = await inParallel(sick, 8, (partner) => deps.webhookEndpoints.get(partner.partnerId as PartnerId));
    return {
      provisionSeconds,
      phases,
      slowPathDepth: samples.map(({ at, ...depth }) => ({ atSeconds: Math.round((at - sickSince) / 1000), ...depth })),
      sickOnSlowPath: endpoints.filter((endpoint) => endpoint?.slowPathSince).length,
      sickCircuitsOpen: endpoints.filter((endpoint) => endpoint?.circuit?.state === 'open').length,
    };
  } finally {
    clearInterval(sampling.timer);
    counter.stop();
    await receiver.close();
    await close();
  }
}
