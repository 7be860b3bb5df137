import autocannon from 'autocannon';

export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Responses outside the expected status, plus connection errors and timeouts. */
  readonly unexpected: number;
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
  const result = await autocannon({
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
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    unexpected: unexpected + result.errors + result.timeouts,
  };
}
