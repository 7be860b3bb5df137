/**
 * The latency series: one request at a time, alternating between the service and its
 * floor request by request, so both sides see the machine in the same state.
 *
 * This VM's speed drifts by tens of percent within seconds (DynamoDB Local's JIT and
 * garbage collector, other tenants). Runs of a side that take turns every second or two
 * still catch different spells, and their p50 ratio moved by ±10% from round to round;
 * two requests sent back to back catch the same spell. Pairs alternate which side goes
 * first, so neither side always follows the other (and meets, say, the item the other
 * just read still warm in DynamoDB Local).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { percentile } from './util';
import type { BenchRequest, SideBySide } from './workloads';

interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Responses outside the expected status, plus connection errors and timeouts. */
  readonly unexpected: number;
  /** CPU milliseconds of this process per request: the server side plus the (identical) load generator. */
  readonly cpuMsPerRequest: number;
}

export interface PairedLatency {
  readonly service: LatencySummary;
  readonly baseline: LatencySummary;
  /** The series cut into consecutive stretches of equally many pairs: each stretch's service p50 over its floor p50. */
  readonly stretchP50Ratios: readonly number[];
}

export interface PairedLatencyOptions {
  readonly targets: { readonly service: string; readonly baseline: string };
  readonly workloads: SideBySide;
  /** Seconds of wall time the whole series lasts, both sides together. */
  readonly seconds: number;
  /** Stretches the series is cut into for `stretchP50Ratios`. */
  readonly stretches: number;
}

type Side = keyof PairedLatencyOptions['targets'];

interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
  readonly expected: boolean;
}

/** A failed request still ends its turn; an abandoned socket must not stall the series. */
const REQUEST_TIMEOUT_MS = 30_000;

async function timed(pool: Pool, request: BenchRequest, expectStatus: number): Promise<Sample> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let expected = false;
  try {
    const response = await pool.request({
      method: request.method,
      path: request.path,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    // The response counts once all of it has arrived.
    await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
    expected = response.statusCode === expectStatus;
  } catch {
    // An error or a timeout: the request stays unexpected and the series goes on.
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, expected };
}

function summary(samples: readonly Sample[]): LatencySummary {
  const latencies = samples.map((s) => s.ms);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: samples.length,
    unexpected: samples.filter((s) => !s.expected).length,
    cpuMsPerRequest: samples.reduce((sum, s) => sum + s.cpuMs, 0) / samples.length,
  };
}

const p50Of = (samples: readonly Sample[]) =>
  percentile(
    samples.map((s) => s.ms),
    50,
  );

export async function measurePairedLatency(options: PairedLatencyOptions): Promise<PairedLatency> {
  const pools: Record<Side, Pool> = {
    service: new Pool(options.targets.service, { connections: 1 }),
    baseline: new Pool(options.targets.baseline, { connections: 1 }),
  };
  const samples: Record<Side, Sample[]> = { service: [], baseline: [] };
  try {
    const ends = performance.now() + options.seconds * 1000;
    for (let pair = 0; performance.now() < ends; pair += 1) {
      const order: readonly Side[] = pair % 2 === 0 ? ['service', 'baseline'] : ['baseline', 'service'];
      for (const side of order) {
        const workload = options.workloads[side];
        samples[side].push(await timed(pools[side], workload.next(), workload.expectStatus));
      }
    }
  } finally {
    await Promise.all([pools.service.close(), pools.baseline.close()]);
  }
  const pairs = samples.service.length;
  const stretch = Math.max(1, Math.floor(pairs / options.stretches));
  const stretchP50Ratios: number[] = [];
  for (let start = 0; start + stretch <= pairs && stretchP50Ratios.length < options.stretches; start += stretch) {
    stretchP50Ratios.push(
      p50Of(samples.service.slice(start, start + stretch)) / p50Of(samples.baseline.slice(start, start + stretch)),
    );
  }
  return { service: summary(samples.service), baseline: summary(samples.baseline), stretchP50Ratios };
}

/**
 * Untimed load on both sides, `connections` requests at a time per side, for `seconds`
 * each: DynamoDB Local's JIT keeps making it faster for about the first minute of load.
 */
export async function warmUp(
  targets: PairedLatencyOptions['targets'],
  workloads: SideBySide,
  seconds: number,
  connections: number,
): Promise<void> {
  for (const side of ['service', 'baseline'] as const) {
    const pool = new Pool(targets[side], { connections });
    const ends = performance.now() + seconds * 1000;
    const workload = workloads[side];
    try {
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (performance.now() < ends) await timed(pool, workload.next(), workload.expectStatus);
        }),
      );
    } finally {
      await pool.close();
    }
  }
}
