import autocannon from 'autocannon';
import { percentile } from './util';

export interface LoadResult {
  readonly rps: number;
  /** Seconds the run actually took. */
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Responses outside the expected status, plus connection errors and timeouts. */
  readonly unexpected: number;
  /** CPU time this whole process spent during the run (the server under test and the load generator alike). */
  readonly cpuMs: number;
  /** Every response's latency in milliseconds (sub-millisecond precision), so runs can be combined exactly. */
  readonly latenciesMs: readonly number[];
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Builds each request: method, path, headers and body may vary per call (e.g. rotating partners). */
  readonly next: () => { method: 'POST' | 'GET'; path: string; headers: Record<string, string>; body?: string };
  readonly expectStatus: number;
}

/** A fixed-concurrency, fixed-duration run with autocannon; latencies in milliseconds. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let unexpected = 0;
  const latenciesMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const next = options.next();
              return { ...request, method: next.method, path: next.path, headers: next.headers, body: next.body };
            },
            onResponse: (status) => {
              if (status !== options.expectStatus) unexpected += 1;
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latenciesMs.push(responseTime));
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    rps: result.requests.total / result.duration,
    seconds: result.duration,
    p50: percentile(latenciesMs, 50),
    p99: percentile(latenciesMs, 99),
    requests: result.requests.total,
    unexpected: unexpected + result.errors + result.timeouts,
    latenciesMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}
