import { randomUUID } from 'node:crypto';
import { METRIC, noMetrics } from '../../domain/metrics';
import type { PartnerId } from '../../domain/partners/partner';
import type { Delivery, DeliveryMessage } from '../delivery';
import {
  type Admission,
  type AdmissionTicket,
  attemptVerdict,
  type CircuitState,
  circuitDeferral,
} from '../endpoint-circuit';
import { hopDelaySeconds, MAX_SQS_DELAY_SECONDS, RETRY_AFTER_STATUSES, retryAfterSeconds } from '../retry-schedule';
import { isSuccess } from './signed-post';
import type { TransportResult } from '../webhook-transport';
import type { BatchReads } from './batch-reads';
import type { WebhookDispatcherDependencies } from './dispatch-dependencies';

type FairDeliveryDependencies = Pick<
  WebhookDispatcherDependencies,
  'gate' | 'fairness' | 'attemptLeaseSeconds' | 'queue' | 'schedule' | 'clock' | 'logger' | 'metrics'
>;

/** What fair delivery decided for one due attempt. */
type Pass =
  /** Send now (`at`): with the gate's ticket, or without one when the partner has no endpoint. `leave` after the attempt. */
  | { readonly kind: 'go'; readonly at: Date; readonly ticket?: AdmissionTicket; readonly leave: () => void }
  /** The message was queued again for later, without a POST. */
  | { readonly kind: 'deferred' }
  /** The attempt reached its next rung with the circuit still open: it counts as failed, unsent. */
  | { readonly kind: 'unsent'; readonly at: Date; readonly dueAt: Date; readonly openedAt?: string };

/**
 * Fair delivery, the one place that decides how many attempts go to an endpoint at once
 * (docs/webhooks.md, "Fair delivery"). One per queue batch: it knows the batch's attempts in
 * flight, the gate's leases count every dispatcher's attempts.
 * 1. The batch's snapshot says the circuit is open (or its probe is out): deferred, no write.
 * 2. Otherwise the gate claims a slot of the in-flight cap, or the half-open probe; at a
 *    healthy endpoint's cap, the attempt first waits for a sibling of its batch to finish.
 *    The cap adapts (docs/webhooks.md, "How throughput adapts"): each fast 2xx raises it
 *    one step up to `maxInFlight`, a slow 2xx halves it, a failure sets it to one. Fast and
 *    slow are against the endpoint's own latency baseline, which each 2xx updates (`slowAfterMs`).
 * 3. Over the cap: the message comes back in a few seconds, without a POST, the ladder
 *    untouched; over the operator's `maxRate` for this second, or while the endpoint's
 *    `Retry-After` holds, it comes back when that ends.
 * 4. Circuit open: the message comes back when the circuit allows a probe, but never after
 *    the next rung of the ladder; at that rung the attempt counts as failed, unsent
 *    (the last attempt waits at most `lastAttemptGraceSeconds`, then fails and alerts).
 * 5. Admitted: the attempt is made, and its outcome settles the ticket and the circuit (`settle`).
 */
export class FairDelivery {
  private readonly siblings = new BatchSiblings();

  constructor(
    private readonly dependencies: FairDeliveryDependencies,
    private readonly reads: BatchReads,
  ) {}

  async admit(delivery: Delivery, message: DeliveryMessage, now: Date): Promise<Pass> {
    const key = delivery.partnerId;
    const endpoint = await this.reads.endpoint(key);
    if (!endpoint) return { kind: 'go', at: now, leave: () => undefined };
    const { fairness, gate, clock } = this.dependencies;
    const known = circuitDeferral(endpoint.circuit, now);
    if (known) return this.deferForCircuit(delivery, message, now, known);
    // A bound on real waiting (a timer), not a time of the domain: measured on the process's own clock.
    const waitUntil = Date.now() + fairness.busyDeferSeconds(false) * 1000;
    for (;;) {
      // Waiting for a sibling took time: the gate decides at the time of asking.
      const asked = clock.now();
      // Counted from the asking on: a sibling whose claim is still being written holds its slot already.
      this.siblings.start(key);
      let admission: Admission;
      try {
        admission = await gate.admit(key, {
          now: asked,
          leaseUntil: new Date(asked.getTime() + this.dependencies.attemptLeaseSeconds * 1000),
          token: randomUUID(),
          policy: fairness,
        });
      } catch (error) {
        this.siblings.finish(key);
        throw error;
      }
      if (admission.kind !== 'admitted') this.siblings.finish(key);
      switch (admission.kind) {
        case 'admitted': {
          if (admission.ticket.halfOpened) this.countCircuitChange('half-open');
          return { kind: 'go', at: asked, ticket: admission.ticket, leave: () => this.siblings.finish(key) };
        }
        case 'no-endpoint':
          return { kind: 'go', at: asked, leave: () => undefined };
        case 'busy':
          // At a healthy endpoint's cap with siblings of this batch in flight to it: the next to finish frees a slot.
          if (!admission.until && !admission.failing && (await this.siblings.turn(key, waitUntil - Date.now())))
            continue;
          return this.deferBusy(delivery, message, admission.failing, admission.until);
        case 'circuit-open':
          return this.deferForCircuit(delivery, message, asked, admission);
      }
    }
  }

  /**
   * Releases the ticket, counts the outcome (`result`; none when the POST threw) in the
   * endpoint's circuit and concurrency, and logs a change of the circuit's state.
   */
  async settle(partnerId: PartnerId, ticket: AdmissionTicket, result: TransportResult | undefined): Promise<void> {
    const { clock, fairness: policy } = this.dependencies;
    const at = clock.now();
    const asked =
      result?.kind === 'response' && RETRY_AFTER_STATUSES.has(result.statusCode)
        ? retryAfterSeconds(result.retryAfter, at)
        : undefined;
    const succeeded = result !== undefined && isSuccess(result);
    const transition = await this.dependencies.gate.settle(partnerId, ticket, {
      verdict: result ? attemptVerdict(result, succeeded, policy, ticket.latencyBaselineMs) : 'failed',
      at,
      policy,
      ...(succeeded ? { latencyMs: result.latencyMs } : {}),
      ...(asked ? { throttledUntil: new Date(at.getTime() + Math.min(asked, policy.maxThrottleSeconds) * 1000) } : {}),
    });
    if (!transition) return;
    this.countCircuitChange(transition.to);
    this.reads.forget(partnerId);
    const log = { partnerId, endpoint: (await this.reads.endpoint(partnerId))?.url };
    if (transition.to === 'open') {
      this.dependencies.logger.info({
        msg: 'webhook_circuit_opened',
        ...log,
        retryAt: transition.retryAt,
        ...(transition.probe
          ? { reason: 'the half-open probe failed' }
          : { consecutiveFailures: transition.consecutiveFailures }),
      });
    } else {
      this.dependencies.logger.info({ msg: 'webhook_circuit_closed', ...log, openedAt: transition.openedAt });
    }
  }

  /** The attempt moved to the slow path unanswered: its slot is free again, and nothing is counted here. */
  release(partnerId: PartnerId, ticket: AdmissionTicket): Promise<void> {
    return this.dependencies.gate.release(partnerId, ticket);
  }

  private async deferBusy(delivery: Delivery, message: DeliveryMessage, failing: boolean, until?: Date): Promise<Pass> {
    const delaySeconds = until
      ? Math.min(MAX_SQS_DELAY_SECONDS, Math.max(1, hopDelaySeconds(until, this.dependencies.clock.now())))
      : this.dependencies.fairness.busyDeferSeconds(failing);
    await this.dependencies.queue.send(message, delaySeconds);
    this.dependencies.logger.info({
      msg: until
        ? 'webhook attempt deferred: endpoint at its rate ceiling or asked to wait'
        : 'webhook attempt deferred: endpoint at its in-flight cap',
      outcome: 'deferred',
      delaySeconds,
      ...attemptLog(delivery, message),
    });
    return { kind: 'deferred' };
  }

  private async deferForCircuit(
    delivery: Delivery,
    message: DeliveryMessage,
    now: Date,
    circuit: { readonly until: Date; readonly openedAt?: string },
  ): Promise<Pass> {
    const dueAt = new Date(message.dueAt);
    const step =
      this.dependencies.schedule.delaysSeconds[message.attempt - 1] ??
      this.dependencies.fairness.lastAttemptGraceSeconds;
    const rung = new Date(dueAt.getTime() + step * 1000);
    if (now >= rung)
      return { kind: 'unsent', at: now, dueAt, ...(circuit.openedAt ? { openedAt: circuit.openedAt } : {}) };
    const until = circuit.until < rung ? circuit.until : rung;
    const delaySeconds = Math.max(1, hopDelaySeconds(until, now));
    await this.dependencies.queue.send(message, delaySeconds);
    this.dependencies.logger.info({
      msg: 'webhook attempt deferred: endpoint circuit open',
      outcome: 'deferred',
      delaySeconds,
      circuitOpenedAt: circuit.openedAt,
      ...attemptLog(delivery, message),
    });
    return { kind: 'deferred' };
  }

  /** Each change is counted once: the gate's conditional writes let only one dispatcher make it. */
  private countCircuitChange(state: CircuitState): void {
    (this.dependencies.metrics ?? noMetrics).count(METRIC.circuitStateChanges, { state });
  }
}

const attemptLog = (delivery: Delivery, message: DeliveryMessage) => ({
  deliveryId: delivery.deliveryId,
  partnerId: delivery.partnerId,
  chain: delivery.chain,
  attempt: message.attempt,
});

/**
 * A batch's attempts in flight to each endpoint. A message that finds a healthy endpoint
 * at its cap while siblings of its batch are in flight to it waits for the next of them to
 * finish (its slot is then free) instead of going back to the queue: a burst to a healthy
 * endpoint goes out in one invocation, and the invocation waits for its slowest attempt
 * anyway. The wait is bounded (`busyDeferSeconds`); the gate's leases still count every
 * dispatcher's attempts.
 */
class BatchSiblings {
  private readonly lanes = new Map<string, { inFlight: number; waiting: (() => void)[] }>();

  private lane(key: string) {
    const lane = this.lanes.get(key) ?? { inFlight: 0, waiting: [] };
    this.lanes.set(key, lane);
    return lane;
  }

  start(key: string): void {
    this.lane(key).inFlight += 1;
  }

  /** One attempt finished (or a claim was refused): the sibling that waited longest asks the gate again. */
  finish(key: string): void {
    const lane = this.lane(key);
    lane.inFlight -= 1;
    lane.waiting.shift()?.();
  }

  /** True when a sibling finished within `waitMs`; false at once when none is in flight. */
  turn(key: string, waitMs: number): Promise<boolean> {
    const lane = this.lane(key);
    if (lane.inFlight === 0 || waitMs <= 0) return Promise.resolve(false);
    return new Promise((turned) => {
      const next = () => {
        clearTimeout(timer);
        turned(true);
      };
      const timer = setTimeout(() => {
        lane.waiting.splice(lane.waiting.indexOf(next), 1);
        turned(false);
      }, waitMs);
      lane.waiting.push(next);
    });
  }
}
