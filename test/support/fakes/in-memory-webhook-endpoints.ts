import type { PartnerId } from '../../../functions/domain/partners/partner';
import {
  type Admission,
  type AdmissionTicket,
  CLOSED_CIRCUIT,
  type CircuitTransition,
  type EndpointGate,
  type FairnessPolicy,
  capWhileSlow,
  inFlightCap,
  slowAttemptMark,
  nextConcurrency,
  nextLatencyBaseline,
  type SettledAttempt,
} from '../../../functions/webhooks/endpoint-circuit';
import type { SigningSecrets, SigningSecretStore } from '../../../functions/webhooks/signing-secret-store';
import type {
  EndpointStatus,
  EndpointStatusChange,
  WebhookEndpoint,
  WebhookEndpointRepository,
} from '../../../functions/webhooks/webhook-endpoint';

/**
 * WebhookEndpointRepository and EndpointGate in a Map, with the DynamoDB adapter's
 * conditions on status, the failing streak, the circuit and the in-flight slots (JavaScript
 * runs each method's check and write without interleaving, as a conditional write does).
 */
export class InMemoryWebhookEndpoints implements WebhookEndpointRepository, EndpointGate {
  readonly endpoints = new Map<PartnerId, WebhookEndpoint>();
  /** Leases of the attempts in flight per endpoint, by slot: their expiry and token. */
  readonly inFlight = new Map<PartnerId, Map<number, { until: string; lease: string }>>();
  private probes = new Map<PartnerId, string>();
  /** Attempts started per endpoint in the current second (the operator's `maxRate`). */
  private readonly rate = new Map<PartnerId, { second: number; count: number }>();

  async admit(
    partnerId: PartnerId,
    { now, leaseUntil, token, policy }: { now: Date; leaseUntil: Date; token: string; policy: FairnessPolicy },
  ): Promise<Admission> {
    const endpoint = this.endpoints.get(partnerId);
    if (!endpoint) return { kind: 'no-endpoint' };
    const circuit = endpoint.circuit ?? CLOSED_CIRCUIT;
    const lease = `${leaseUntil.toISOString()}|${token}`;
    const nowIso = now.toISOString();
    if (circuit.state !== 'closed') {
      const until = circuit.state === 'open' ? circuit.retryAt : circuit.probeUntil;
      if (until && until > nowIso)
        return {
          kind: 'circuit-open',
          until: new Date(until),
          ...(circuit.openedAt ? { openedAt: circuit.openedAt } : {}),
        };
      this.endpoints.set(partnerId, {
        ...endpoint,
        circuit: { ...circuit, state: 'half-open', probeUntil: leaseUntil.toISOString() },
      });
      this.probes.set(partnerId, lease);
      return {
        kind: 'admitted',
        ticket: {
          kind: 'probe',
          slot: -1,
          lease,
          opens: circuit.opens ?? 1,
          halfOpened: circuit.state === 'open',
          latencyBaselineMs: circuit.latencyBaselineMs,
        },
      };
    }
    const failing = circuit.consecutiveFailures > 0;
    if (circuit.throttledUntil && circuit.throttledUntil > nowIso)
      return { kind: 'busy', failing, until: new Date(circuit.throttledUntil) };
    const second = Math.floor(now.getTime() / 1000);
    const used = this.rate.get(partnerId);
    const count = used?.second === second ? used.count : 0;
    if (endpoint.maxRate !== undefined && count >= endpoint.maxRate)
      return { kind: 'busy', failing, until: new Date((second + 1) * 1000) };
    const slots = this.inFlight.get(partnerId) ?? new Map();
    this.inFlight.set(partnerId, slots);
    const mark = slowAttemptMark(leaseUntil, policy, circuit.latencyBaselineMs);
    const slow = [...slots.values()].some((held) => held.until >= nowIso && held.until < mark);
    const cap = slow ? capWhileSlow(inFlightCap(circuit, policy), policy) : inFlightCap(circuit, policy);
    for (let slot = 0; slot < cap; slot += 1) {
      const held = slots.get(slot);
      if (held && held.until >= nowIso) continue;
      slots.set(slot, { until: leaseUntil.toISOString(), lease });
      if (endpoint.maxRate !== undefined) this.rate.set(partnerId, { second, count: count + 1 });
      return {
        kind: 'admitted',
        ticket: {
          kind: 'slot',
          slot,
          lease,
          opens: 0,
          halfOpened: false,
          concurrency: circuit.concurrency,
          latencyBaselineMs: circuit.latencyBaselineMs,
        },
      };
    }
    return { kind: 'busy', failing };
  }

  async settle(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    { verdict, at, policy, throttledUntil, latencyMs }: SettledAttempt,
  ): Promise<CircuitTransition | undefined> {
    const slots = this.inFlight.get(partnerId);
    if (ticket.kind === 'slot' && slots?.get(ticket.slot)?.lease === ticket.lease) slots.delete(ticket.slot);
    const endpoint = this.endpoints.get(partnerId);
    if (!endpoint) return undefined;
    const stored = endpoint.circuit ?? CLOSED_CIRCUIT;
    // A probe's success starts the endpoint again from one attempt at a time.
    const concurrency =
      ticket.kind === 'probe' && verdict !== 'failed' ? 1 : nextConcurrency(stored.concurrency, verdict, policy);
    const circuit = {
      ...stored,
      concurrency,
      ...(throttledUntil ? { throttledUntil: throttledUntil.toISOString() } : {}),
    };
    if (verdict !== 'failed') {
      const { throttledUntil: asked } = stored;
      // As the DynamoDB gate does: from the baseline the claim read, the last settle's write standing.
      const latencyBaselineMs =
        latencyMs === undefined
          ? stored.latencyBaselineMs
          : nextLatencyBaseline(ticket.latencyBaselineMs, latencyMs, policy);
      this.endpoints.set(partnerId, {
        ...endpoint,
        circuit: {
          ...CLOSED_CIRCUIT,
          concurrency,
          ...(asked ? { throttledUntil: asked } : {}),
          ...(latencyBaselineMs === undefined ? {} : { latencyBaselineMs }),
        },
      });
      return circuit.state === 'closed'
        ? undefined
        : { to: 'closed', ...(circuit.openedAt ? { openedAt: circuit.openedAt } : {}) };
    }
    const consecutiveFailures = circuit.consecutiveFailures + 1;
    if (ticket.kind === 'probe') {
      if (circuit.state !== 'half-open' || this.probes.get(partnerId) !== ticket.lease) return undefined;
      const opens = ticket.opens + 1;
      const retryAt = new Date(at.getTime() + policy.openSeconds(opens) * 1000).toISOString();
      const { probeUntil: _probe, ...rest } = circuit;
      this.endpoints.set(partnerId, {
        ...endpoint,
        circuit: { ...rest, state: 'open', retryAt, opens, consecutiveFailures },
      });
      return { to: 'open', retryAt, probe: true };
    }
    if (circuit.state !== 'closed' || consecutiveFailures < policy.failureThreshold) {
      this.endpoints.set(partnerId, { ...endpoint, circuit: { ...circuit, consecutiveFailures } });
      return undefined;
    }
    const retryAt = new Date(at.getTime() + policy.openSeconds(1) * 1000).toISOString();
    this.endpoints.set(partnerId, {
      ...endpoint,
      circuit: { ...circuit, state: 'open', consecutiveFailures, openedAt: at.toISOString(), retryAt, opens: 1 },
    });
    return { to: 'open', retryAt, consecutiveFailures, probe: false };
  }

  async get(partnerId: PartnerId) {
    return this.endpoints.get(partnerId);
  }

  async put(endpoint: WebhookEndpoint) {
    this.endpoints.set(endpoint.partnerId, endpoint);
  }

  async remove(partnerId: PartnerId) {
    return this.endpoints.delete(partnerId);
  }

  async changeStatus(partnerId: PartnerId, change: EndpointStatusChange, from: readonly EndpointStatus[]) {
    const current = this.endpoints.get(partnerId);
    if (!current || !from.includes(current.status)) return false;
    const { failingSince: _streak, statusReason: _reason, ...rest } = current;
    this.endpoints.set(partnerId, {
      ...rest,
      status: change.status,
      statusSince: change.since,
      updatedAt: change.since,
      ...(change.reason ? { statusReason: change.reason } : {}),
    });
    return true;
  }

  async markFailing(partnerId: PartnerId, since: Date) {
    const current = this.endpoints.get(partnerId);
    if (current && !current.failingSince)
      this.endpoints.set(partnerId, { ...current, failingSince: since.toISOString() });
  }

  async markHealthy(partnerId: PartnerId) {
    const current = this.endpoints.get(partnerId);
    if (!current?.failingSince) return;
    const { failingSince: _streak, ...rest } = current;
    this.endpoints.set(partnerId, rest);
  }

  async markSlowPath(partnerId: PartnerId, since: Date, reason: string) {
    const current = this.endpoints.get(partnerId);
    if (!current) return false;
    this.endpoints.set(partnerId, {
      ...current,
      slowPathSince: current.slowPathSince ?? since.toISOString(),
      slowPathReason: reason,
    });
    return current.slowPathSince === undefined;
  }

  async markFastPath(partnerId: PartnerId) {
    const current = this.endpoints.get(partnerId);
    if (!current?.slowPathSince) return false;
    const { slowPathSince: _since, slowPathReason: _reason, ...rest } = current;
    this.endpoints.set(partnerId, rest);
    return true;
  }

  async release(partnerId: PartnerId, ticket: AdmissionTicket) {
    const slots = this.inFlight.get(partnerId);
    if (ticket.kind === 'slot' && slots?.get(ticket.slot)?.lease === ticket.lease) slots.delete(ticket.slot);
    if (ticket.kind === 'probe' && this.probes.get(partnerId) === ticket.lease) this.probes.delete(partnerId);
  }
}

/** SigningSecretStore in a Map. */
export class InMemorySigningSecrets implements SigningSecretStore {
  readonly secrets = new Map<PartnerId, SigningSecrets>();

  async get(partnerId: PartnerId) {
    return this.secrets.get(partnerId);
  }

  async put(partnerId: PartnerId, secrets: SigningSecrets) {
    this.secrets.set(partnerId, secrets);
  }

  async remove(partnerId: PartnerId) {
    this.secrets.delete(partnerId);
  }
}
