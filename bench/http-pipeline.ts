/**
 * Each endpoint through the full local HTTP pipeline (API Gateway adapter, middy,
 * authentication, rate limit, validation, domain, DynamoDB adapters, JSON request log)
 * against its sequential floor: a plain node:http server making only the endpoint's
 * unavoidable calls one after another.
 *
 * Two series per endpoint. Latency, the targets: one request at a time, as one Lambda
 * instance serves them, so a request's time is its own critical path (this is where
 * making independent calls at once shows); the two sides take turns request by request
 * (paired-latency.ts). Throughput, for reference: 8 connections, which saturate this
 * machine; there every request waits behind the others, so the p50 follows CPU per
 * request rather than the path of one request. It runs in rounds of service, floor,
 * floor, service, so a drift of the machine's speed hits both sides alike.
 *
 * DynamoDB Local (a JVM) dominates this machine's CPU and keeps getting faster for the
 * first minute or so of load as its JIT compiles, so every workload is first run on both
 * sides as a warm-up.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAwsClients } from '../functions/adapters/aws-clients';
import { paymentCustomerIdempotencyKey } from '../functions/domain/payments/payment-provider';
import { BareCalls } from './bare-calls';
import { type BaselineServer, startBaselineServer } from './baseline-server';
import { bareSettings, type BenchStack } from './bench-stack';
import { type LoadResult, runLoad } from './http-load';
import { type LatencySummary, type PairedLatency, measurePairedLatency } from './paired-latency';
import { median, percentile } from './util';
import type { SideBySide, Workload } from './workloads';

export interface LoadSummary extends LatencySummary {
  readonly rps: number;
}

export interface SideBySideLoad {
  readonly service: LoadSummary;
  readonly baseline: LoadSummary;
}

export interface PipelineResult {
  readonly endpoint: Workload['endpoint'];
  /** One request at a time, the sides taking turns: the latency targets. */
  readonly latency: PairedLatency;
  /** `throughputConnections` at once: the machine saturated. */
  readonly throughput: SideBySideLoad;
}

export interface PipelineOptions {
  /** Connections of the throughput series (the latency series has one). */
  readonly throughputConnections: number;
  /** Measured seconds per side of the latency series (it lasts twice as long: the sides take turns). */
  readonly latencySeconds: number;
  /** Stretches the latency series is cut into to show how far its ratio moves within a run. */
  readonly latencyStretches: number;
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

/** Rounds of the throughput series; a side runs twice a round. */
export const PIPELINE_ROUNDS = 5;

/**
 * The seconds per side the throughput series lasts when asked for `seconds`: autocannon
 * runs whole seconds (it rounds a duration up), so each of a side's 2 × PIPELINE_ROUNDS
 * runs lasts a whole number of seconds, at least one.
 */
export const throughputSecondsPerSide = (seconds: number): number => 2 * PIPELINE_ROUNDS * Math.max(1, Math.round(seconds / (2 * PIPELINE_ROUNDS)));

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
    const throughputSeries = async (pair: SideBySide): Promise<SideBySideLoad> => {
      const run = throughputSecondsPerSide(options.throughputSeconds) / (2 * PIPELINE_ROUNDS);
      const service: LoadResult[] = [];
      const floor: LoadResult[] = [];
      for (let round = 0; round < PIPELINE_ROUNDS; round += 1) {
        service.push(await load(pair, 'service', options.throughputConnections, run));
        floor.push(await load(pair, 'baseline', options.throughputConnections, run));
        floor.push(await load(pair, 'baseline', options.throughputConnections, run));
        service.push(await load(pair, 'service', options.throughputConnections, run));
      }
      return { service: combine(service), baseline: combine(floor) };
    };

    for (const pair of workloads) {
      await load(pair, 'service', options.throughputConnections, options.warmupSeconds);
      await load(pair, 'baseline', options.throughputConnections, options.warmupSeconds);
    }

    const results: PipelineResult[] = [];
    for (const pair of workloads) {
      results.push({
        endpoint: pair.service.endpoint,
        latency: await measurePairedLatency({
          targets,
          workloads: pair,
          seconds: 2 * options.latencySeconds,
          stretches: options.latencyStretches,
        }),
        throughput: await throughputSeries(pair),
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
