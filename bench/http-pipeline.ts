/**
 * Each endpoint through the full local HTTP pipeline (API Gateway adapter, middy,
 * authentication, rate limit, validation, domain, DynamoDB adapters, JSON request log)
 * against its floor (floors.ts): one request at a time, as one Lambda instance serves
 * them, so a request's time is its own critical path; the two sides take turns request by
 * request (paired-latency.ts).
 *
 * DynamoDB Local (a JVM) dominates this machine's CPU and keeps getting faster for the
 * first minute or so of load as its JIT compiles, so every workload is first run on both
 * sides as a warm-up.
 */
import type { BenchStack } from './bench-stack';
import { measurePairedLatency, type PairedLatency, warmUp } from './paired-latency';
import type { SideBySide, Workload } from './workloads';

export interface PipelineResult {
  readonly endpoint: Workload['endpoint'];
  readonly latency: PairedLatency;
}

export interface PipelineOptions {
  /** Measured seconds per side (the series lasts twice as long: the sides take turns). */
  readonly seconds: number;
  /** Stretches the series is cut into to show how far its ratio moves within a run. */
  readonly stretches: number;
  /** Seconds of untimed load per side and workload before any measurement, at `warmupConnections`. */
  readonly warmupSeconds: number;
  readonly warmupConnections: number;
}

export async function measureHttpPipeline(
  bench: BenchStack,
  floorUrl: string,
  workloads: readonly SideBySide[],
  options: PipelineOptions,
): Promise<PipelineResult[]> {
  // Both on 127.0.0.1: "localhost" may resolve to ::1 first, where nothing listens.
  const targets = { service: bench.stack.url.replace('localhost', '127.0.0.1'), baseline: floorUrl };
  for (const pair of workloads) await warmUp(targets, pair, options.warmupSeconds, options.warmupConnections);
  const results: PipelineResult[] = [];
  for (const pair of workloads) {
    results.push({
      endpoint: pair.service.endpoint,
      latency: await measurePairedLatency({
        targets,
        workloads: pair,
        seconds: 2 * options.seconds,
        stretches: options.stretches,
      }),
    });
  }
  return results;
}
