import { errorFromResponse } from './error-from-response.js';
import { PartnerConnectionError, PartnerError, PartnerRateLimitError, PartnerTimeoutError } from './errors.js';
import { DEFAULT_RETRY_POLICY, type Retryable, type RetryPolicy, retryDelayMs } from './retry-policy.js';

export interface TransportOptions {
  readonly apiKey: string;
  /** The API's address without `/v1`, e.g. `https://api.example-procurement.com` or `http://localhost:3000`. */
  readonly baseUrl: string;
  /** Per attempt; default 30 s. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt; default 2. */
  readonly maxRetries?: number;
  /** Replaces the global `fetch` (a proxy agent, a recording wrapper in tests). */
  readonly fetch?: typeof fetch;
  /** Replaces the wait between retries (tests: advance a clock instead of waiting). */
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** With `/v1`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** The route's key header (the API refuses a key in the other one). */
  readonly credential: 'bearer' | 'x-api-key';
  readonly headers?: Readonly<Record<string, string>>;
  readonly retryable: Retryable;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One API call: the attempts, their timeouts, and the typed error when they all fail. */
export class HttpTransport {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('PartnerClient needs an apiKey');
    this.baseUrl = new URL(options.baseUrl).toString().replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.policy = { ...DEFAULT_RETRY_POLICY, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.sleep = options.sleep ?? defaultSleep;
  }

  async request<T>(request: ApiRequest): Promise<T> {
    for (let retry = 0; ; retry += 1) {
      try {
        return (await this.attempt(request)) as T;
      } catch (error) {
        if (!(error instanceof PartnerError) || retry >= this.policy.maxRetries || !mayRetry(error, request.retryable))
          throw error;
        const retryAfter = error instanceof PartnerRateLimitError ? error.retryAfterSeconds : undefined;
        await this.sleep(retryDelayMs(this.policy, retry, Math.random, retryAfter));
      }
    }
  }

  private async attempt(request: ApiRequest): Promise<unknown> {
    const url = new URL(`${this.baseUrl}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(request.credential === 'bearer'
        ? { Authorization: `Bearer ${this.options.apiKey}` }
        : { 'X-API-Key': this.options.apiKey }),
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...request.headers,
    };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const response = await this.fetch(url, {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: controller.signal,
      });
      const text = await response.text();
      const body = parseJson(text);
      if (response.ok) return body;
      throw errorFromResponse(response.status, response.headers, body ?? text);
    } catch (error) {
      if (error instanceof PartnerError) throw error;
      if (controller.signal.aborted) {
        throw new PartnerTimeoutError({
          message: `No response from ${request.method} ${request.path} within ${this.timeoutMs} ms`,
          cause: error,
        });
      }
      throw new PartnerConnectionError({
        message: `Could not reach the API for ${request.method} ${request.path}: ${(error as Error).message}`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

function mayRetry(error: PartnerError, retryable: Retryable): boolean {
  if (error.status === 429) return true;
  if (retryable === 'on-rate-limit') return false;
  return error instanceof PartnerConnectionError || (error.status !== undefined && error.status >= 500);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
