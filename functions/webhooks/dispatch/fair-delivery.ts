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
 * (docs/webhooks.md, "Fair delivery"). One per queue batch: the batch's lanes are its own,
 * the gate's leases count every dispatcher's attempts.
 * 1. The batch's snapshot says the circuit is open (or its probe is out): deferred, no write.
 * 2. Otherwise the attempt takes a place in the batch's lane to its endpoint, then the gate
 *    claims a slot of the in-flight cap, or the half-open probe.
 *    The cap adapts (docs/webhooks.md, "How throughput adapts"): each fast 2xx raises it
 *    one step up to `maxInFlight`, a slow 2xx halves it, a failure sets it to one.
 * 3. Over the cap: the message comes back in a few seconds, without a POST, the ladder
 *    untouched; over the operator's `maxRate` for this second, or while the endpoint's
 *    `Retry-After` holds, it comes back when that ends.
 * 4. Circuit open: the message comes back when the circuit allows a probe, but never after
 *    the next rung of the ladder; at that rung the attempt counts as failed, unsent
 *    (the last attempt waits at most `lastAttemptGraceSeconds`, then fails and alerts).
 * 5. Admitted: the attempt is made, and its outcome settles the ticket and the circuit (`settle`).
 */
export class FairDelivery {
  private readonly lanes: BatchLanes;

  constructor(
    private readonly dependencies: FairDeliveryDependencies,
    private readonly reads: BatchReads,
  ) {
    this.lanes = new BatchLanes(dependencies.fairness.maxInFlight);
  }

  async admit(delivery: Delivery, message: DeliveryMessage, now: Date): Promise<Pass> {
    const key = delivery.partnerId;
    const endpoint = await this.reads.endpoint(key);
    if (!endpoint) return { kind: 'go', at: now, leave: () => undefined };
    const { fairness, gate, clock } = this.dependencies;
    const known = circuitDeferral(endpoint.circuit, now);
    const failing = (endpoint.circuit?.consecutiveFailures ?? 0) > 0;
    const inLane = !known && (await this.lanes.enter(key, fairness.busyDeferSeconds(failing) * 1000));
    const leave = () => (inLane ? this.lanes.leave(key) : undefined);
    // Waiting for a sibling took time: the gate decides at the time of asking.
    const asked = inLane ? clock.now() : now;
    let admission: Admission;
    try {
      admission = known
        ? { kind: 'circuit-open', ...known }
        : !inLane
          ? { kind: 'busy', failing }
          : await gate.admit(key, {
              now: asked,
              leaseUntil: new Date(asked.getTime() + this.dependencies.attemptLeaseSeconds * 1000),
              token: randomUUID(),
              policy: fairness,
            });
    } catch (error) {
      leave();
      throw error;
    }
    switch (admission.kind) {
      case 'admitted':
        if (admission.ticket.halfOpened) this.countCircuitChange('half-open');
        return { kind: 'go', at: asked, ticket: admission.ticket, leave };
      case 'no-endpoint':
        return { kind: 'go', at: asked, leave };
      case 'busy':
        leave();
        return this.deferBusy(delivery, message, admission.failing, admission.until);
      case 'circuit-open':
        leave();
        return this.deferForCircuit(delivery, message, asked, admission);
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
    const transition = await this.dependencies.gate.settle(partnerId, ticket, {
      verdict: result ? attemptVerdict(result, isSuccess(result), policy) : 'failed',
      at,
      policy,
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
 * A batch's attempts to one endpoint take turns, at most `width` at a time: a message that
 * finds its endpoint's lane full waits up to `waitMs` for a sibling of the batch to finish
 * (a burst to a healthy endpoint goes out in one invocation) and is otherwise deferred like
 * one over the cap. The gate's leases still count every dispatcher's attempts.
 */
class BatchLanes {
  private readonly lanes = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly width: number) {}

  /** A place in the endpoint's lane, or false when none freed up within `waitMs`. */
  async enter(key: string, waitMs: number): Promise<boolean> {
    const lane = this.lanes.get(key) ?? { active: 0, waiting: [] };
    this.lanes.set(key, lane);
    if (lane.active < this.width) {
      lane.active += 1;
      return true;
    }
    return new Promise((entered) => {
      const turn = () => {
        clearTimeout(timer);
        lane.active += 1;
        entered(true);
      };
      const timer = setTimeout(() => {
        lane.waiting.splice(lane.waiting.indexOf(turn), 1);
        entered(false);
      }, waitMs);
      lane.waiting.push(turn);
    });
  }

  leave(key: string): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    lane.active -= 1;
    lane.waiting.shift()?.();
  }
}
