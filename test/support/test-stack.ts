import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { powertoolsMetrics } from '../../functions/adapters/observability/powertools-metrics';
import type { Logger } from '../../functions/domain/logger';
import { METRICS_NAMESPACE } from '../../functions/resources/resource-definitions';
import type { Scope } from '../../functions/domain/partners/partner';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../lib/local-runtime/local-stack';
import { ManualClock } from './manual-clock';

export interface TestStack extends LocalStack {
  readonly clock: ManualClock;
  /** Every structured log line the service wrote, as parsed objects. */
  readonly logs: Record<string, unknown>[];
  readonly rawLogLines: string[];
  /** Every EMF metrics line the service wrote (Powertools Metrics), as parsed objects. */
  readonly metricLines: Record<string, unknown>[];
  createPartner(options?: { scopes?: Scope[] }): Promise<{ partnerId: PartnerId; apiKey: string; keyId: string }>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  patch(path: string, body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly text: string;
}

/**
 * A service stack on the shared stand-ins with its own tables and queues, a manual clock
 * and captured logs. `resourcePrefix` reopens another test stack's tables and queues,
 * as a restarted `npm start` reopens its own.
 */
export async function startTestStack(options: Partial<Omit<LocalStackOptions, 'port'>> = {}): Promise<TestStack> {
  const clock = new ManualClock();
  const rawLogLines: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const record = (level: string) => (entry: Record<string, unknown>) => {
    const line = JSON.stringify({ level, ...entry });
    rawLogLines.push(line);
    logs.push(JSON.parse(line));
  };
  const logger: Logger = { info: record('info'), error: record('error') };
  const metricLines: Record<string, unknown>[] = [];
  const resourcePrefix = options.resourcePrefix ?? `t${randomUUID().slice(0, 8)}`;
  const metrics = powertoolsMetrics({
    namespace: METRICS_NAMESPACE,
    service: resourcePrefix,
    write: (line) => metricLines.push(JSON.parse(line)),
  });
  const stack = await startLocalStack({
    standIns: inject('standIns'),
    resourcePrefix,
    port: 0,
    clock,
    logger,
    metrics,
    // No retry jitter unless a test asks for it, so ladders are exact.
    random: () => 0,
    ...options,
  });
  return {
    ...stack,
    clock,
    logs,
    rawLogLines,
    metricLines,
    async createPartner({ scopes } = {}) {
      const created = await stack.deps.partnerAdmin.createPartner({ name: `Partner ${randomUUID().slice(0, 6)}` });
      if (!scopes) return created;
      await stack.deps.partnerAdmin.revokeKey(created.partnerId, created.keyId as never);
      const narrowed = await stack.deps.partnerAdmin.issueKey(created.partnerId, scopes);
      return { partnerId: created.partnerId, ...narrowed };
    },
    async post(path, body, headers = {}) {
      return send('POST', path, body, headers);
    },
    async patch(path, body, headers = {}) {
      return send('PATCH', path, body, headers);
    },
    async get(path, headers = {}) {
      return toTestResponse(await fetch(`${stack.url}${path}`, { headers }));
    },
  };

  async function send(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<TestResponse> {
    return toTestResponse(
      await fetch(`${stack.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  }
}

/** The body parsed when it is JSON, and its text either way. */
async function toTestResponse(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
