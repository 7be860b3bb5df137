import type { PartnerId } from '../domain/partners/partner';

/**
 * A partner endpoint's circuit breaker (docs/webhooks.md, "Fair delivery"):
 * `closed` sends; `open` (after `failureThreshold` failed attempts in a row) defers every
 * due attempt without a POST until `retryAt`; `half-open` lets one probe attempt through,
 * claimed with a conditional write, while the others keep waiting. The probe's success (or
 * any other attempt's) closes the circuit; its failure opens it again for twice as long.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** The circuit as stored with the endpoint; an endpoint without one is `closed` with no failures. */
export interface EndpointCircuit {
  readonly state: CircuitState;
  /** Failed attempts since the last successful one (any delivery of the endpoint). */
  readonly consecutiveFailures: number;
  /** When the circuit last went from closed to open; set while open or half-open. */
  readonly openedAt?: string;
  /** While open: when a probe may go. */
  readonly retryAt?: string;
  /** While half-open: until when the probe's claim holds (a crashed prober's claim lapses then). */
  readonly probeUntil?: string;
  /** How often it opened since it last closed: the open period doubles with each. */
  readonly opens?: number;
}

export const CLOSED_CIRCUIT: EndpointCircuit = { state: 'closed', consecutiveFailures: 0 };

/** The limits the dispatcher applies per endpoint. */
export interface FairnessPolicy {
  /** Failed attempts in a row that open the circuit. */
  readonly failureThreshold: number;
  /** Attempts in flight at once to an endpoint whose last attempt succeeded. */
  readonly maxInFlight: number;
  /** ... and to one with a failing streak (it is probably slow or dead: it gets one slot). */
  readonly maxInFlightWhileFailing: number;
  /** How long the circuit stays open after its `opens`-th opening. */
  openSeconds(opens: number): number;
  /** How long an attempt over the in-flight cap waits before it asks again. */
  busyDeferSeconds(failing: boolean): number;
  /**
   * How long past its due time the last attempt of a ladder waits for an open circuit:
   * earlier attempts wait until their next rung, the last one has none.
   */
  readonly lastAttemptGraceSeconds: number;
}

export const FAIRNESS_POLICY: FairnessPolicy = {
  failureThreshold: 5,
  maxInFlight: 2,
  maxInFlightWhileFailing: 1,
  // 30 s, 1, 2, 4, 8 minutes, then 15 (one SQS delay) for as long as the probes fail.
  openSeconds: (opens) => Math.min(900, 30 * 2 ** Math.max(0, opens - 1)),
  busyDeferSeconds: (failing) => (failing ? 10 : 2),
  lastAttemptGraceSeconds: 900,
};

/** An attempt let through: a slot of the in-flight cap, or the half-open circuit's one probe. */
export interface AdmissionTicket {
  readonly kind: 'slot' | 'probe';
  /** The slot's index (kind `slot`). */
  readonly slot: number;
  /** The lease written with the claim; only its holder releases it. */
  readonly lease: string;
  /** The circuit's openings so far (kind `probe`): a failed probe opens it for longer. */
  readonly opens: number;
  /**
   * This claim moved the circuit from open to half-open (kind `probe`). A claim of a lapsed
   * probe's place finds it half-open already: no change of state to count.
   */
  readonly halfOpened: boolean;
}

export type Admission =
  | { readonly kind: 'admitted'; readonly ticket: AdmissionTicket }
  /** The circuit is open (or its probe is out): not before `until`. */
  | { readonly kind: 'circuit-open'; readonly until: Date; readonly openedAt?: string }
  /** The endpoint has its cap of attempts in flight. */
  | { readonly kind: 'busy'; readonly failing: boolean }
  /** No endpoint is configured (it was removed): the attempt goes on and fails as before. */
  | { readonly kind: 'no-endpoint' };

/** A change of the circuit's state that an attempt's outcome made. */
export type CircuitTransition =
  | {
      readonly to: 'open';
      readonly retryAt: string;
      readonly probe: boolean;
      /** Set when a closed circuit opened (the failures that opened it). */ readonly consecutiveFailures?: number;
    }
  | { readonly to: 'closed'; readonly openedAt?: string };

/**
 * The endpoint's admission gate, stored with the endpoint: every claim is a conditional
 * write, and every lease expires, so a dispatcher that crashes holding one leaks nothing.
 */
export interface EndpointGate {
  /** Claims a slot (or the probe) for one attempt, or says why not. */
  admit(
    partnerId: PartnerId,
    request: { readonly now: Date; readonly leaseUntil: Date; readonly token: string; readonly policy: FairnessPolicy },
  ): Promise<Admission>;
  /** Releases the ticket and counts the attempt's outcome in the circuit. */
  settle(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    outcome: { readonly succeeded: boolean; readonly at: Date; readonly policy: FairnessPolicy },
  ): Promise<CircuitTransition | undefined>;
}

/**
 * What the batch's snapshot of the endpoint already says, without a write: an open
 * circuit (or an out probe) defers at once; anything else asks the gate.
 */
export function circuitDeferral(
  circuit: EndpointCircuit | undefined,
  now: Date,
): { until: Date; openedAt?: string } | undefined {
  if (!circuit) return undefined;
  const until =
    circuit.state === 'open' ? circuit.retryAt : circuit.state === 'half-open' ? circuit.probeUntil : undefined;
  if (!until || new Date(until) <= now) return undefined;
  return { until: new Date(until), ...(circuit.openedAt ? { openedAt: circuit.openedAt } : {}) };
}
