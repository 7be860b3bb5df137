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
  /**
   * The endpoint's adaptive concurrency: attempts it may have in flight while its last
   * attempt succeeded (absent: the policy's `initialInFlight`). Raised one step by each
   * fast 2xx (`slowAfterMs`), halved by a slow one (not below `initialInFlight`), back to 1 on a failure.
   */
  readonly concurrency?: number;
  /**
   * The endpoint's own latency: a smoothed average of its 2xx answers' durations, in ms
   * (`nextLatencyBaseline`); absent until its first 2xx. An answer is slow against this, not a fixed time.
   */
  readonly latencyBaselineMs?: number;
  /** A 429 or 503 asked to wait (`Retry-After`): no attempt goes to the endpoint before this. */
  readonly throttledUntil?: string;
}

export const CLOSED_CIRCUIT: EndpointCircuit = { state: 'closed', consecutiveFailures: 0 };

/** The limits the dispatcher applies per endpoint. */
export interface FairnessPolicy {
  /** Failed attempts in a row that open the circuit. */
  readonly failureThreshold: number;
  /** Adaptive concurrency starts here (a new endpoint, or one stored before it adapted). */
  readonly initialInFlight: number;
  /** The ceiling of adaptive concurrency: attempts in flight at once to a healthy endpoint. */
  readonly maxInFlight: number;
  /**
   * Before an endpoint's first 2xx (no latency baseline yet): a 2xx answered within this raises
   * its concurrency, a slower one halves it. After, `slowAfterMs` judges against its own latency.
   */
  readonly healthyLatencyMs: number;
  /** An answer within this is never slow, however fast the endpoint usually is (network jitter, a GC pause). */
  readonly slowLatencyFloorMs: number;
  /** An answer is slow when it takes more than this many times the endpoint's latency baseline. */
  readonly slowLatencyFactor: number;
  /** The weight of each new 2xx in the latency baseline (an exponentially weighted moving average). */
  readonly latencyBaselineWeight: number;
  /** The longest an endpoint-wide `Retry-After` holds every attempt back (one SQS delay). */
  readonly maxThrottleSeconds: number;
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
  initialInFlight: 2,
  maxInFlight: 32,
  healthyLatencyMs: 1000,
  // docs/decisions.md, "Slow means slow for this endpoint": twice its usual latency, never under 250 ms;
  // the baseline weighs each answer 1/8, as TCP's smoothed round-trip time does (RFC 6298).
  slowLatencyFloorMs: 250,
  slowLatencyFactor: 2,
  latencyBaselineWeight: 1 / 8,
  maxThrottleSeconds: 900,
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
  /** The endpoint's concurrency when the slot was claimed (undefined when the claim did not read it). */
  readonly concurrency?: number;
  /** The endpoint's latency baseline when the claim was made (undefined before its first 2xx). */
  readonly latencyBaselineMs?: number;
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
  /**
   * The endpoint has its cap of attempts in flight, or (with `until`) used its operator's
   * `maxRate` for this second, or asked to wait with a `Retry-After`.
   */
  | { readonly kind: 'busy'; readonly failing: boolean; readonly until?: Date }
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
  /** Releases the ticket and counts the attempt's outcome in the circuit and the endpoint's concurrency. */
  settle(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    outcome: SettledAttempt,
  ): Promise<CircuitTransition | undefined>;
  /**
   * Gives the ticket back without an outcome: its attempt moved to the slow path unanswered
   * (docs/webhooks.md, "Fast and slow paths"), where it is admitted again and its outcome counted once.
   */
  release(partnerId: PartnerId, ticket: AdmissionTicket): Promise<void>;
}

/**
 * How an attempt went, for the endpoint's concurrency: `fast` (2xx within the endpoint's
 * `slowAfterMs`), `slow` (a later 2xx) or `failed` (timeout, error, any other status).
 */
export type AttemptVerdict = 'fast' | 'slow' | 'failed';

export interface SettledAttempt {
  readonly verdict: AttemptVerdict;
  readonly at: Date;
  readonly policy: FairnessPolicy;
  /** A 429 or 503 asked the endpoint to wait until then (already capped at `maxThrottleSeconds`). */
  readonly throttledUntil?: Date;
  /** A 2xx's duration: the gate folds it into the endpoint's latency baseline (`nextLatencyBaseline`). */
  readonly latencyMs?: number;
}

/**
 * How long a 2xx may take before it counts as slow for this endpoint: `slowLatencyFactor` times
 * its latency baseline, never under `slowLatencyFloorMs`; `healthyLatencyMs` before it has one.
 * An endpoint that usually answers in 80 ms is slow at 600 ms; one that always answers in 900 ms is not.
 */
export function slowAfterMs(latencyBaselineMs: number | undefined, policy: FairnessPolicy): number {
  if (latencyBaselineMs === undefined) return policy.healthyLatencyMs;
  return Math.max(policy.slowLatencyFloorMs, Math.round(policy.slowLatencyFactor * latencyBaselineMs));
}

/**
 * The latency baseline after a 2xx that took `latencyMs`: its first 2xx sets it, each later one
 * moves it `latencyBaselineWeight` of the way. Slow answers count too: an endpoint that slows for
 * good (80 to 600 ms) is judged against its new latency after five such answers instead of being
 * held at `initialInFlight` forever, while one slow answer among fast ones moves it by an eighth.
 */
export function nextLatencyBaseline(
  latencyBaselineMs: number | undefined,
  latencyMs: number,
  policy: FairnessPolicy,
): number {
  const sample = Math.max(0, latencyMs);
  if (latencyBaselineMs === undefined) return Math.round(sample);
  return Math.round(latencyBaselineMs + policy.latencyBaselineWeight * (sample - latencyBaselineMs));
}

export function attemptVerdict(
  result: { readonly kind: 'response' | 'error'; readonly latencyMs: number },
  succeeded: boolean,
  policy: FairnessPolicy,
  latencyBaselineMs: number | undefined,
): AttemptVerdict {
  if (!succeeded) return 'failed';
  return result.latencyMs <= slowAfterMs(latencyBaselineMs, policy) ? 'fast' : 'slow';
}

/** Attempts the endpoint may have in flight now: one while failing, else its adaptive concurrency. */
export function inFlightCap(circuit: EndpointCircuit | undefined, policy: FairnessPolicy): number {
  if ((circuit?.consecutiveFailures ?? 0) > 0) return policy.maxInFlightWhileFailing;
  return Math.min(policy.maxInFlight, Math.max(1, circuit?.concurrency ?? policy.initialInFlight));
}

/**
 * Leases (`<expiry>|<token>`) that expire after now but before this mark belong to attempts
 * in flight for longer than the endpoint's `slowAfterMs` (every lease runs as long as the one asked
 * for now). While one is, the endpoint is slowing or hanging, and its answer is not in yet: it
 * gets no more than `initialInFlight` attempts at once, as before concurrency adapted, so a
 * receiver that starts hanging holds at most that many dispatchers until its timeouts count.
 */
export const slowAttemptMark = (
  leaseUntil: Date,
  policy: FairnessPolicy,
  latencyBaselineMs: number | undefined,
): string => new Date(leaseUntil.getTime() - slowAfterMs(latencyBaselineMs, policy)).toISOString();

/** The cap while some attempt is in flight past the endpoint's `slowAfterMs` (`slowAttemptMark`). */
export const capWhileSlow = (cap: number, policy: FairnessPolicy): number => Math.min(cap, policy.initialInFlight);

/**
 * The concurrency after an attempt (AIMD-like): one step up per fast 2xx, up to the
 * ceiling; halved by a slow 2xx, but never below `initialInFlight`; back to one on a
 * failure, so a sick endpoint that recovers climbs again from one.
 */
export function nextConcurrency(current: number | undefined, verdict: AttemptVerdict, policy: FairnessPolicy): number {
  const now = current ?? policy.initialInFlight;
  switch (verdict) {
    case 'fast':
      return Math.min(policy.maxInFlight, now + 1);
    case 'slow':
      // Slow is not failing: a healthy endpoint keeps the fair share every endpoint had before concurrency adapted.
      return Math.max(policy.initialInFlight, Math.floor(now / 2));
    case 'failed':
      return 1;
  }
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
