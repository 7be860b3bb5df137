import type { CircuitState, EndpointCircuit } from '../../webhooks/endpoint-circuit';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint';

/**
 * The circuit and the in-flight leases are top-level attributes of the endpoint's item, so
 * each claim and count is one conditional UpdateItem: `circuitState`, `circuitFailures`,
 * `circuitOpenedAt`, `circuitRetryAt`, `circuitOpens`, `circuitProbe` (the probe's lease),
 * `concurrencyLimit` (adaptive concurrency), `latencyBaselineMs` (its smoothed 2xx latency), `throttledUntil` (an endpoint-wide
 * `Retry-After`), `rateSecond` and `rateCount` (attempts started in that epoch second, for
 * the operator's `maxRate`) and `inFlight0`, `inFlight1`, … (one lease per slot). A lease
 * is `<expiry ISO>|<token>`: it compares with an ISO time as its expiry does, and names its holder.
 */
const CIRCUIT_ATTRIBUTES = [
  'circuitState',
  'circuitFailures',
  'circuitOpenedAt',
  'circuitRetryAt',
  'circuitOpens',
  'circuitProbe',
  'concurrencyLimit',
  'latencyBaselineMs',
  'throttledUntil',
  'rateSecond',
  'rateCount',
] as const;

export const IN_FLIGHT_PREFIX = 'inFlight';
export const slotAttribute = (slot: number) => `${IN_FLIGHT_PREFIX}${slot}`;
export const leaseOf = (until: Date, token: string) => `${until.toISOString()}|${token}`;
export const leaseExpiry = (lease: unknown) => (typeof lease === 'string' ? lease.split('|')[0] : undefined);

export function circuitFromItem(item: Record<string, unknown>): EndpointCircuit | undefined {
  if (
    item.circuitState === undefined &&
    item.circuitFailures === undefined &&
    item.concurrencyLimit === undefined &&
    item.latencyBaselineMs === undefined &&
    item.throttledUntil === undefined
  )
    return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const probeUntil = leaseExpiry(item.circuitProbe);
  return {
    state: (text(item.circuitState) as CircuitState | undefined) ?? 'closed',
    consecutiveFailures: Number(item.circuitFailures ?? 0),
    ...(text(item.circuitOpenedAt) ? { openedAt: text(item.circuitOpenedAt) } : {}),
    ...(text(item.circuitRetryAt) ? { retryAt: text(item.circuitRetryAt) } : {}),
    ...(probeUntil ? { probeUntil } : {}),
    ...(item.circuitOpens !== undefined ? { opens: Number(item.circuitOpens) } : {}),
    ...(item.concurrencyLimit !== undefined ? { concurrency: Number(item.concurrencyLimit) } : {}),
    ...(item.latencyBaselineMs !== undefined ? { latencyBaselineMs: Number(item.latencyBaselineMs) } : {}),
    ...(text(item.throttledUntil) ? { throttledUntil: text(item.throttledUntil) } : {}),
  };
}

export const endpointFromItem = (item: Record<string, unknown>): WebhookEndpoint => {
  const endpoint = Object.fromEntries(
    Object.entries(item).filter(
      ([name]) =>
        name !== 'pk' &&
        name !== 'sk' &&
        !name.startsWith(IN_FLIGHT_PREFIX) &&
        !(CIRCUIT_ATTRIBUTES as readonly string[]).includes(name),
    ),
  );
  const circuit = circuitFromItem(item);
  // Endpoints stored before endpoint health had no status: they were sending.
  return {
    status: 'enabled',
    statusSince: endpoint.createdAt,
    ...endpoint,
    ...(circuit ? { circuit } : {}),
  } as WebhookEndpoint;
};

/** The circuit's attributes for a whole-item put (leases are not kept: their holders' releases then change nothing). */
export function circuitItem(circuit: EndpointCircuit | undefined): Record<string, unknown> {
  if (!circuit) return {};
  return {
    circuitState: circuit.state,
    circuitFailures: circuit.consecutiveFailures,
    ...(circuit.openedAt ? { circuitOpenedAt: circuit.openedAt } : {}),
    ...(circuit.retryAt ? { circuitRetryAt: circuit.retryAt } : {}),
    ...(circuit.opens !== undefined ? { circuitOpens: circuit.opens } : {}),
    ...(circuit.concurrency !== undefined ? { concurrencyLimit: circuit.concurrency } : {}),
    ...(circuit.latencyBaselineMs !== undefined ? { latencyBaselineMs: circuit.latencyBaselineMs } : {}),
    ...(circuit.throttledUntil ? { throttledUntil: circuit.throttledUntil } : {}),
  };
}

export const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';
