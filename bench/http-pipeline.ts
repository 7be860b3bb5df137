/**
 * Each endpoint through the full local HTTP pipeline (API Gateway adapter, middy,
 * authentication, rate limit, validation, domain, DynamoDB adapters, JSON request log)
 * against its sequential floor: a plain node:http server making only the endpoint's
 * unavoidable calls one after another.
 *
 * Two series per endpoint and side. Latency, the targets: one request at a time, as one
 * Lambda instance serves them, so a request's time is its own critical path (this is
 * where making independent calls at once shows). Throughput, for reference: 8
 * connections, which saturate this machine; there every request waits behind the
 * others, so the p50 follows CPU per request rather than the path of one request.
 *
 * DynamoDB Local (a JVM) dominates this machine's CPU and keeps getting faster for the
 * first minute or so of load as its JIT compiles. So every workload is first run on both
 * sides as a warm-up, and then each series is measured in rounds of service, floor,
 * floor, service: a drift that is still going on hits both sides alike, and so does
 * whatever else the machine does. A slow spell of this VM shorter than a round still
 * lands on one side only; so each round's p50s are compared on their own, and the
 * judged p50 ratio is the median of the rounds' ratios, which one such round cannot move.
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

export interface SideBySideLoad {
  readonly service: LoadSummary;
  readonly baseline: LoadSummary;
  /** Each round's service p50 over its floor p50, in round order. */
  readonly roundP50Ratios: readonly number[];
}

export interface PipelineResult {
  readonly endpoint: Workload['endpoint'];
  /** One request at a time: the latency targets. */
  readonly latency: SideBySideLoad;
  /** `throughputConnections` at once: the machine saturated. */
  readonly throughput: SideBySideLoad;
}

export interface PipelineOptions {
  /** Connections of the throughput series (the latency series has one). */
  readonly throughputConnections: number;
  /** Measured seconds per side of the latency series, over all its rounds. */
  readonly latencySeconds: number;
  /** Measured seconds per side of the throughput series, over all its rounds. */
  readonly throughputSeconds: number;
  /** Seconds of load per side and workload before any measurement, at `throughputConnections`. */
  readonly warmupSeconds: number;
}

/** Runs of one side as one: all their requests over all their time, percentiles over all latencies. */
function combine(runs: readonly LoadResult[]): LoadSummary {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const latencies = runs.flatMap((r) => r.latenciesMs);
  return {
    rps: requests / runs.reduce((sum, r) => sum + r.seconds, 0),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
    unexpected: runs.reduce((sum, r) => sum + r.unexpected, 0),
    cpuMsPerRequest: runs.reduce((sum, r) => sum + r.cpuMs, 0) / requests,
  };
}

const p50Of = (runs: readonly LoadResult[]) => percentile(runs.flatMap((r) => r.latenciesMs), 50);

/** Rounds per series (odd, so the median is one round's ratio); a side runs twice a round. */
export const PIPELINE_ROUNDS = 5;

/**
 * The seconds per side a series lasts when asked for `seconds`: autocannon runs whole
 * seconds (it rounds a duration up), so each of a side's 2 × PIPELINE_ROUNDS runs lasts a
 * whole number of seconds, at least one.
 */
export const seriesSecondsPerSide = (seconds: number): number => 2 * PIPELINE_ROUNDS * Math.max(1, Math.round(seconds / (2 * PIPELINE_ROUNDS)));

export async function measureHttpPipeline(bench: BenchStack, workloads: readonly SideBySide[], options: PipelineOptions): Promise<PipelineResult[]> {
  const bareClients = createAwsClients(bench.standIns.endpoints);
  let baseline: BaselineServer | undefined;
  try {
    baseline = await startBaselineServer(new BareCalls(bareClients.db, bareSettings(bench, bareClients)));
    // Both on 127.0.0.1: "localhost" may resolve to ::1 first, where nothing listens.
    const targets = { service: bench.stack.url.replace('localhost', '127.0.0.1'), baseline: baseline.url };
    const load = (pair: SideBySide, side: keyof typeof targets, connections: number, durationSeconds: number) =>
      runLoad({
        url: targets[side],
        connections,
        durationSeconds,
        next: () => pair[side].next(),
        expectStatus: pair[side].expectStatus,
      });
    // Rounds of service, floor, floor, service: the machine's speed drifts (DynamoDB Local's
    // JIT, other tenants of this VM), and short alternating runs make both sides see the same drift.
    const series = async (pair: SideBySide, connections: number, seconds: number): Promise<SideBySideLoad> => {
      const run = seriesSecondsPerSide(seconds) / (2 * PIPELINE_ROUNDS);
      const rounds: { service: LoadResult[]; floor: LoadResult[] }[] = [];
      for (let round = 0; round < PIPELINE_ROUNDS; round += 1) {
        const first = await load(pair, 'service', connections, run);
        const floor = [await load(pair, 'baseline', connections, run), await load(pair, 'baseline', connections, run)];
        rounds.push({ service: [first, await load(pair, 'service', connections, run)], floor });
      }
      return {
        service: combine(rounds.flatMap((r) => r.service)),
        baseline: combine(rounds.flatMap((r) => r.floor)),
        roundP50Ratios: rounds.map((r) => p50Of(r.service) / p50Of(r.floor)),
      };
    };

    for (const pair of workloads) {
      await load(pair, 'service', options.throughputConnections, options.warmupSeconds);
      await load(pair, 'baseline', options.throughputConnections, options.warmupSeconds);
    }

    const results: PipelineResult[] = [];
    for (const pair of workloads) {
      results.push({
        endpoint: pair.service.endpoint,
        latency: await series(pair, 1, options.latencySeconds),
        throughput: await series(pair, options.throughputConnections, options.throughputSeconds),
      });
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
