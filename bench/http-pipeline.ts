/**
 * Each endpoint through the full local HTTP pipeline (API Gateway adapter, middy,
 * authentication, rate limit, validation, domain, DynamoDB adapters, JSON request log)
 * against its sequential floor: a plain node:http server making only the endpoint's
 * unavoidable calls one after another, under the same autocannon load.
 *
 * DynamoDB Local (a JVM) dominates this machine's CPU and keeps getting faster for the
 * first minute or so of load as its JIT compiles. So every workload is first run on both
 * sides as a warm-up, and then each is measured in the order service, baseline,
 * baseline, service (half the duration each): a drift that is still going on hits both
 * sides alike, and so does whatever else the machine does.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAwsClients } from '../functions/adapters/aws-clients';
import { paymentCustomerIdempotencyKey } from '../functions/domain/payments/payment-provider';
import { BareCalls } from './bare-calls';
import { type BaselineServer, startBaselineServer } from './baseline-server';
import { bareSettings, type BenchStack } from './bench-stack';
import { type LoadResult, runLoad } from './http-load';
import { median, percentile } from './util';
import type { SideBySide, Workload } from './workloads';

export interface LoadSummary {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  readonly unexpected: number;
  /** CPU milliseconds of this process per request: the server side plus the (identical) load generator. */
  readonly cpuMsPerRequest: number;
}

export interface PipelineResult {
  readonly endpoint: Workload['endpoint'];
  readonly service: LoadSummary;
  readonly baseline: LoadSummary;
}

export interface PipelineOptions {
  readonly connections: number;
  /** Measured seconds per side, in two halves. */
  readonly durationSeconds: number;
  /** Seconds of load per side and workload before any measurement. */
  readonly warmupSeconds: number;
}

/** The halves of one side as one run: all their requests over all their time, percentiles over all latencies. */
function combine(halves: readonly LoadResult[]): LoadSummary {
  const requests = halves.reduce((sum, h) => sum + h.requests, 0);
  const latencies = halves.flatMap((h) => h.latenciesMs);
  return {
    rps: requests / halves.reduce((sum, h) => sum + h.seconds, 0),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
    unexpected: halves.reduce((sum, h) => sum + h.unexpected, 0),
    cpuMsPerRequest: halves.reduce((sum, h) => sum + h.cpuMs, 0) / requests,
  };
}

export async function measureHttpPipeline(bench: BenchStack, workloads: readonly SideBySide[], options: PipelineOptions): Promise<PipelineResult[]> {
  const bareClients = createAwsClients(bench.standIns.endpoints);
  let baseline: BaselineServer | undefined;
  try {
    baseline = await startBaselineServer(new BareCalls(bareClients.db, bareSettings(bench, bareClients)));
    // Both on 127.0.0.1: "localhost" may resolve to ::1 first, where nothing listens.
    const targets = { service: bench.stack.url.replace('localhost', '127.0.0.1'), baseline: baseline.url };
    const load = (pair: SideBySide, side: keyof typeof targets, durationSeconds: number) =>
      runLoad({
        url: targets[side],
        connections: options.connections,
        durationSeconds,
        next: () => pair[side].next(),
        expectStatus: pair[side].expectStatus,
      });

    for (const pair of workloads) {
      await load(pair, 'service', options.warmupSeconds);
      await load(pair, 'baseline', options.warmupSeconds);
    }

    const results: PipelineResult[] = [];
    const half = options.durationSeconds / 2;
    for (const pair of workloads) {
      const first = await load(pair, 'service', half);
      const base = [await load(pair, 'baseline', half), await load(pair, 'baseline', half)];
      const last = await load(pair, 'service', half);
      results.push({ endpoint: pair.service.endpoint, service: combine([first, last]), baseline: combine(base) });
    }
    return results;
  } finally {
    await baseline?.close();
    bareClients.db.destroy();
  }
}

/**
 * For the notes on "setup, new org": the median time of one new customer through the real
 * payments adapter and the Stripe stand-in, one at a time.
 */
export async function measureStripeRoundTrip(bench: BenchStack, count: number): Promise<number> {
  const { payments, config } = bench.stack.deps.functions.setup;
  const partner = bench.partners[0];
  if (!partner) throw new Error('no partner provisioned');
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const owner = { partnerId: partner.partnerId, stage: config.STAGE, internalOrgId: `org-stripe-${randomUUID()}` };
    const started = performance.now();
    await payments.ensureCustomer({ idempotencyKey: paymentCustomerIdempotencyKey(owner), owner, details: { name: 'Acme Dental' } });
    times.push(performance.now() - started);
  }
  return median(times);
}
