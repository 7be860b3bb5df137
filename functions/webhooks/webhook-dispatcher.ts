import { type Clock, epochSeconds } from '../domain/clock';
import { correlate } from '../domain/correlation';
import type { Logger } from '../domain/logger';
import { METRIC, type Metrics, noMetrics } from '../domain/metrics';
import type { PartnerId } from '../domain/partners/partner';
import type { PartnerRepository } from '../domain/partners/partner-repository';
import { randomUUID } from 'node:crypto';
import type { AlertMailer } from './alert-mailer';
import type { Delivery, DeliveryAttempt, DeliveryId, DeliveryMessage } from './delivery';
import type { DeliveryBatchReader } from './delivery-batch-reader';
import {
  type Admission,
  type AdmissionTicket,
  type CircuitState,
  type CircuitTransition,
  circuitDeferral,
  type EndpointGate,
  type FairnessPolicy,
} from './endpoint-circuit';
import type { AttemptOutcome, DeliveryRepository } from './delivery-repository';
import type { MessageQueue } from './message-queue';
import { hopDelaySeconds, MAX_SQS_DELAY_SECONDS, type RetrySchedule, retryAfterSeconds } from './retry-schedule';
import { liveSecrets, type SigningSecretStore } from './signing-secret-store';
import type { WebhookEndpoint, WebhookEndpointRepository } from './webhook-endpoint';
import { signWebhookBody, standardSignatureHeader } from './webhook-signature';
import type { TransportResult, WebhookTransport } from './webhook-transport';

export type DispatchOutcome =
  'delivered' | 'retry-scheduled' | 'failed' | 'not-due' | 'held' | 'deferred' | 'stale' | 'unknown-delivery';

/** How long a claimed failure alert stays claimed before another handler may send it. */
const ALERT_LEASE_SECONDS = 120;
const RESPONSE_BODY_LIMIT = 1024;
export const USER_AGENT = 'PartnerEmbed-Webhooks/1.0';
/** Statuses whose `Retry-After` may lengthen the next wait (RFC 9110: 429 Too Many Requests, 503 Service Unavailable). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
/** The receiver says the endpoint is gone for good. */
const GONE = 410;

export interface WebhookDispatcherDependencies {
  readonly deliveries: DeliveryRepository;
  /** A batch's first read: its deliveries and the endpoints of the partners its messages name. */
  readonly batchReader: DeliveryBatchReader;
  readonly endpoints: WebhookEndpointRepository;
  /** Each endpoint's circuit breaker and in-flight cap (docs/webhooks.md, "Fair delivery"). */
  readonly gate: EndpointGate;
  readonly fairness: FairnessPolicy;
  /** How long an in-flight lease holds: longer than the transport's deadline, so only a crashed holder's lapses. */
  readonly attemptLeaseSeconds: number;
  /** For the failure alert's address. */
  readonly partners: Pick<PartnerRepository, 'getPartner'>;
  readonly secrets: SigningSecretStore;
  readonly transport: WebhookTransport;
  readonly mailer: AlertMailer;
  readonly queue: MessageQueue<DeliveryMessage>;
  readonly schedule: RetrySchedule;
  /** An endpoint whose every attempt has failed for this long is disabled (default 5 days). */
  readonly disableAfterSeconds: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Attempts by outcome, delivery lag, retries scheduled, alerts sent, circuit state changes. */
  readonly metrics?: Metrics;
}

/** The reads a batch of messages shares: its deliveries and named endpoints in one request, any other endpoint once. */
interface BatchReads {
  delivery(deliveryId: DeliveryId): Promise<Delivery | undefined>;
  endpoint(partnerId: PartnerId): Promise<WebhookEndpoint | undefined>;
  /** The endpoint changed (this handler held a delivery for it or changed it): read it again when next asked. */
  forget(partnerId: PartnerId): void;
  /** This batch's own attempts to each endpoint, at most the cap at once (see `BatchLanes`). */
  readonly lanes: BatchLanes;
}

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

/** What the handler gets for one queue batch: `dispatch` once per message of the batch. */
export interface DispatchBatch {
  dispatch(message: DeliveryMessage): Promise<DispatchOutcome>;
}

/**
 * Handles the messages of the deliveries queue: each is one attempt of one delivery, or a
 * hop when the attempt is not due yet. Every message reads its delivery first, so a message
 * handled before, or overtaken by a replay, never reaches the partner again; state changes
 * are conditional on the delivery's chain and attempt count, so a message handled twice at
 * once (SQS redelivers after a crash or timeout) neither counts an attempt twice nor marks
 * delivered what was not, nor alerts twice.
 */
export class WebhookDispatcher {
  constructor(private readonly dependencies: WebhookDispatcherDependencies) {}

  /**
   * Starts a queue batch: one consistent read of all its deliveries and of the endpoint of
   * each partner its messages name begins now (each message's first use waits for it). A
   * partner's endpoint is read once per batch; one no message names (messages queued before
   * they named their partner) is read when its first delivery needs it.
   */
  batch(messages: readonly DeliveryMessage[]): DispatchBatch {
    const named = new Set(messages.flatMap((m) => (m.partnerId ? [m.partnerId as PartnerId] : [])));
    const snapshot = this.dependencies.batchReader.read(
      [...new Set(messages.map((m) => m.deliveryId as DeliveryId))],
      [...named],
    );
    // Each dispatch awaits what it needs and fails with it; these only keep a failed read
    // that no dispatch came to await from counting as an unhandled rejection.
    const withoutUnhandledRejection = <T>(read: Promise<T>) => (read.catch(() => undefined), read);
    withoutUnhandledRejection(snapshot);
    const endpoints = new Map<PartnerId, Promise<WebhookEndpoint | undefined>>(
      [...named].map((partnerId) => [
        partnerId,
        withoutUnhandledRejection(snapshot.then((read) => read.endpoints.get(partnerId))),
      ]),
    );
    const reads: BatchReads = {
      delivery: async (deliveryId) => (await snapshot).deliveries.get(deliveryId),
      endpoint: (partnerId) => {
        let endpoint = endpoints.get(partnerId);
        if (!endpoint) endpoints.set(partnerId, (endpoint = this.dependencies.endpoints.get(partnerId)));
        return endpoint;
      },
      forget: (partnerId) => endpoints.delete(partnerId),
      lanes: new BatchLanes(this.dependencies.fairness.maxInFlight),
    };
    return { dispatch: (message) => this.dispatch(message, reads) };
  }

  private async dispatch(message: DeliveryMessage, reads: BatchReads): Promise<DispatchOutcome> {
    const delivery = await this.readDelivery(message, reads);
    if (typeof delivery === 'string') return delivery;

    const now = this.dependencies.clock.now();
    const dueAt = new Date(message.dueAt);
    if (now < dueAt) {
      const delaySeconds = hopDelaySeconds(dueAt, now);
      await this.dependencies.queue.send(message, delaySeconds);
      const log = { deliveryId: message.deliveryId, chain: message.chain, attempt: message.attempt };
      this.dependencies.logger.info({
        msg: 'webhook attempt not due yet',
        outcome: 'not-due',
        dueAt: message.dueAt,
        delaySeconds,
        ...log,
      });
      return 'not-due';
    }
    const endpoint = await reads.endpoint(delivery.partnerId);
    if (endpoint && endpoint.status !== 'enabled') return this.hold(delivery, now, reads);
    return this.admitted(delivery, message, now, reads);
  }

  /**
   * Fair delivery: an attempt goes only when its endpoint's gate lets it through.
   * 1. The batch's snapshot says the circuit is open (or its probe is out): deferred, no write.
   * 2. Otherwise the gate claims a slot of the in-flight cap, or the half-open probe.
   * 3. Over the cap: the message comes back in a few seconds, without a POST, the ladder untouched.
   * 4. Circuit open: the message comes back when the circuit allows a probe, but never after
   *    the next rung of the ladder; at that rung the attempt counts as failed, unsent
   *    (the last attempt waits at most `lastAttemptGraceSeconds`, then fails and alerts).
   * 5. Admitted: the attempt is made, and its outcome settles the ticket and the circuit.
   */
  private async admitted(
    delivery: Delivery,
    message: DeliveryMessage,
    now: Date,
    reads: BatchReads,
  ): Promise<DispatchOutcome> {
    const endpoint = await reads.endpoint(delivery.partnerId);
    if (!endpoint) return this.attempt(delivery, message.attempt, now, reads);
    const { fairness } = this.dependencies;
    const known = circuitDeferral(endpoint.circuit, now);
    const failing = (endpoint.circuit?.consecutiveFailures ?? 0) > 0;
    const inLane = !known && (await reads.lanes.enter(delivery.partnerId, fairness.busyDeferSeconds(failing) * 1000));
    let entered = inLane;
    try {
      // Waiting for a sibling took time: the gate decides at the time of asking.
      const asked = inLane ? this.dependencies.clock.now() : now;
      const admission = known
        ? ({ kind: 'circuit-open', ...known } as const)
        : !inLane
          ? ({ kind: 'busy', failing } as const)
          : await this.dependencies.gate.admit(delivery.partnerId, {
              now: asked,
              leaseUntil: new Date(asked.getTime() + this.dependencies.attemptLeaseSeconds * 1000),
              token: randomUUID(),
              policy: fairness,
            });
      if (admission.kind !== 'admitted' && admission.kind !== 'no-endpoint' && entered) {
        reads.lanes.leave(delivery.partnerId);
        entered = false;
      }
      return await this.afterAdmission(delivery, message, asked, reads, admission);
    } finally {
      if (entered) reads.lanes.leave(delivery.partnerId);
    }
  }

  private async afterAdmission(
    delivery: Delivery,
    message: DeliveryMessage,
    now: Date,
    reads: BatchReads,
    admission: Admission,
  ): Promise<DispatchOutcome> {
    const { fairness } = this.dependencies;
    const log = {
      deliveryId: delivery.deliveryId,
      partnerId: delivery.partnerId,
      chain: delivery.chain,
      attempt: message.attempt,
    };
    switch (admission.kind) {
      case 'admitted':
        if (admission.ticket.halfOpened) this.countCircuitChange('half-open');
        return this.attempt(delivery, message.attempt, now, reads, admission.ticket);
      case 'no-endpoint':
        return this.attempt(delivery, message.attempt, now, reads);
      case 'busy': {
        const delaySeconds = fairness.busyDeferSeconds(admission.failing);
        await this.dependencies.queue.send(message, delaySeconds);
        this.dependencies.logger.info({
          msg: 'webhook attempt deferred: endpoint at its in-flight cap',
          outcome: 'deferred',
          delaySeconds,
          ...log,
        });
        return 'deferred';
      }
      case 'circuit-open': {
        const dueAt = new Date(message.dueAt);
        const step = this.dependencies.schedule.delaysSeconds[message.attempt - 1] ?? fairness.lastAttemptGraceSeconds;
        const rung = new Date(dueAt.getTime() + step * 1000);
        if (now >= rung) return this.unsent(delivery, message.attempt, dueAt, now, reads, admission.openedAt);
        const until = admission.until < rung ? admission.until : rung;
        const delaySeconds = Math.max(1, hopDelaySeconds(until, now));
        await this.dependencies.queue.send(message, delaySeconds);
        this.dependencies.logger.info({
          msg: 'webhook attempt deferred: endpoint circuit open',
          outcome: 'deferred',
          delaySeconds,
          circuitOpenedAt: admission.openedAt,
          ...log,
        });
        return 'deferred';
      }
    }
  }

  /** The attempt reached its next rung with the circuit still open: it counts as failed, as if it had failed when due, without a POST. */
  private unsent(
    delivery: Delivery,
    attemptNumber: number,
    dueAt: Date,
    now: Date,
    reads: BatchReads,
    openedAt: string | undefined,
  ): Promise<DispatchOutcome> {
    return reads.endpoint(delivery.partnerId).then((endpoint) =>
      this.record(
        delivery,
        attemptNumber,
        now,
        {
          kind: 'error',
          error: `not sent: the endpoint's circuit is open${openedAt ? ` (since ${openedAt})` : ''}`,
          latencyMs: 0,
          url: endpoint?.url ?? '',
        },
        reads,
        dueAt,
      ),
    );
  }

  /** The delivery a message names, read; or why the message is not to be attempted. */
  private async readDelivery(message: DeliveryMessage, reads: BatchReads): Promise<Delivery | DispatchOutcome> {
    const deliveryId = message.deliveryId as DeliveryId;
    const delivery = await reads.delivery(deliveryId);
    const log = { deliveryId, chain: message.chain, attempt: message.attempt };
    if (!delivery) {
      this.dependencies.logger.error({ msg: 'webhook message for an unknown delivery', ...log });
      return 'unknown-delivery';
    }
    if (delivery.chain !== message.chain) return this.stale(log, 'superseded by a replay');
    if (delivery.status === 'failed') {
      // A redelivered final attempt: the alert may not have gone out before the crash.
      await this.ensureAlert(delivery);
      return this.stale(log, 'delivery already failed');
    }
    if (delivery.status === 'delivered') return this.stale(log, 'delivery already delivered');
    if (message.attempt !== delivery.attemptCount + 1) {
      // This attempt was recorded but the handler stopped before its retry was queued; unless
      // the message was due after the record: its attempt was made early (a partner's retry).
      if (
        message.attempt === delivery.attemptCount &&
        delivery.nextAttemptAt &&
        Date.parse(message.dueAt) <= Date.parse(delivery.updatedAt)
      ) {
        await this.queueAttempt(delivery, delivery.attemptCount + 1, new Date(delivery.nextAttemptAt));
      }
      return this.stale(log, 'attempt already recorded');
    }
    return delivery;
  }

  /**
   * The endpoint is paused or disabled: the delivery stays pending, marked held, and its
   * message is consumed; resume or enable queues it again. An endpoint enabled between
   * the batch's read and the hold would leave it held with nobody to release it, so the
   * endpoint is read again after holding and the delivery released and sent at once if so.
   */
  private async hold(delivery: Delivery, now: Date, reads: BatchReads): Promise<DispatchOutcome> {
    const log = {
      deliveryId: delivery.deliveryId,
      partnerId: delivery.partnerId,
      chain: delivery.chain,
      attempt: delivery.attemptCount + 1,
    };
    if (!(await this.dependencies.deliveries.hold(delivery, now)))
      return this.stale(log, 'delivery changed before it was held');
    reads.forget(delivery.partnerId);
    const endpoint = await reads.endpoint(delivery.partnerId);
    if (
      endpoint?.status === 'enabled' &&
      (await this.dependencies.deliveries.release(delivery.deliveryId, delivery.chain, now, now))
    ) {
      const attempt = delivery.attemptCount + 1;
      return this.admitted(
        delivery,
        {
          deliveryId: delivery.deliveryId,
          partnerId: delivery.partnerId,
          chain: delivery.chain,
          attempt,
          dueAt: now.toISOString(),
        },
        now,
        reads,
      );
    }
    this.dependencies.logger.info({
      msg: 'webhook delivery held',
      outcome: 'held',
      endpointStatus: endpoint?.status,
      ...log,
    });
    return 'held';
  }

  private async attempt(
    delivery: Delivery,
    attemptNumber: number,
    startedAt: Date,
    reads: BatchReads,
    ticket?: AdmissionTicket,
  ): Promise<DispatchOutcome> {
    // The attempt's lines carry the request that made the order change, and the order's ids.
    const { eventId, requestId, orderId, organizationId } = delivery;
    correlate({
      eventId,
      requestId,
      orderId,
      organizationId,
      partnerId: delivery.partnerId,
      deliveryId: delivery.deliveryId,
    });
    let result: TransportResult & { url: string };
    try {
      result = await this.send(delivery, startedAt, reads);
    } catch (error) {
      if (ticket) await this.settle(delivery.partnerId, ticket, false, reads).catch(() => undefined);
      throw error;
    }
    if (ticket) {
      // The POST happened: a failed release must not fail the message (SQS would send it again). The lease lapses by itself.
      await this.settle(delivery.partnerId, ticket, isSuccess(result), reads).catch((error: unknown) =>
        this.dependencies.logger.error({
          msg: 'webhook endpoint gate not settled; its lease lapses',
          partnerId: delivery.partnerId,
          deliveryId: delivery.deliveryId,
          error: String(error),
        }),
      );
    }
    return this.record(delivery, attemptNumber, startedAt, result, reads);
  }

  /** Releases the ticket, counts the outcome in the endpoint's circuit, and logs a change of its state. */
  private async settle(
    partnerId: PartnerId,
    ticket: AdmissionTicket,
    succeeded: boolean,
    reads: BatchReads,
  ): Promise<void> {
    const transition = await this.dependencies.gate.settle(partnerId, ticket, {
      succeeded,
      at: this.dependencies.clock.now(),
      policy: this.dependencies.fairness,
    });
    if (!transition) return;
    this.countCircuitChange(transition.to);
    reads.forget(partnerId);
    const endpoint = await reads.endpoint(partnerId);
    this.logCircuit(transition, { partnerId, endpoint: endpoint?.url });
  }

  /** Each change is counted once: the gate's conditional writes let only one dispatcher make it. */
  private countCircuitChange(state: CircuitState): void {
    (this.dependencies.metrics ?? noMetrics).count(METRIC.circuitStateChanges, { state });
  }

  private logCircuit(transition: CircuitTransition, log: { partnerId: PartnerId; endpoint: string | undefined }): void {
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

  /**
   * Records an attempt's result: delivered, or failed with its retry queued, or failed for
   * good with the alert. `failedAt` is when the next wait starts: when the attempt ended, or
   * for an attempt the open circuit kept back, when it was due (the ladder is not lengthened).
   */
  private async record(
    delivery: Delivery,
    attemptNumber: number,
    startedAt: Date,
    result: TransportResult & { url: string },
    reads: BatchReads,
    failedAt?: Date,
  ): Promise<DispatchOutcome> {
    const finishedAt = this.dependencies.clock.now();
    const succeeded = isSuccess(result);
    const attempt: DeliveryAttempt = {
      chain: delivery.chain,
      attempt: attemptNumber,
      attemptedAt: startedAt.toISOString(),
      url: result.url,
      succeeded,
      latencyMs: result.latencyMs,
      ...(result.kind === 'response'
        ? { statusCode: result.statusCode, responseBody: result.body.slice(0, RESPONSE_BODY_LIMIT) }
        : { error: result.error }),
    };
    const askedToWait =
      result.kind === 'response' && RETRY_AFTER_STATUSES.has(result.statusCode)
        ? retryAfterSeconds(result.retryAfter, finishedAt)
        : undefined;
    const nextAttemptAt = succeeded
      ? undefined
      : this.dependencies.schedule.nextAttemptAt(attemptNumber, failedAt ?? finishedAt, askedToWait);
    const outcome: AttemptOutcome = succeeded
      ? { attempt, status: 'delivered' }
      : nextAttemptAt
        ? { attempt, status: 'pending', nextAttemptAt: nextAttemptAt.toISOString() }
        : { attempt, status: 'failed', alertStatus: 'pending' };

    const log = {
      deliveryId: delivery.deliveryId,
      partnerId: delivery.partnerId,
      event: delivery.event,
      chain: delivery.chain,
      attempt: attemptNumber,
      statusCode: attempt.statusCode,
      error: attempt.error,
      latencyMs: attempt.latencyMs,
    };
    if (!(await this.dependencies.deliveries.recordAttempt(delivery, outcome, finishedAt))) {
      return this.stale(log, 'another handler recorded this attempt first');
    }
    await this.updateHealth(delivery.partnerId, attempt, finishedAt, reads);
    const metrics = this.dependencies.metrics ?? noMetrics;
    metrics.count(METRIC.webhookAttempts, {
      outcome: outcome.status === 'pending' ? 'retry-scheduled' : outcome.status,
    });
    if (outcome.status === 'delivered') {
      // From the order change's commit; a replay (a later chain) is an operator's choice, not lag.
      if (delivery.chain === 1 && delivery.occurredAt)
        metrics.observe(METRIC.deliveryLag, finishedAt.getTime() - Date.parse(delivery.occurredAt));
      this.dependencies.logger.info({ msg: 'webhook delivered', outcome: 'delivered', ...log });
      return 'delivered';
    }
    if (outcome.status === 'pending' && nextAttemptAt) {
      await this.queueAttempt(delivery, attemptNumber + 1, nextAttemptAt);
      metrics.count(METRIC.retriesScheduled);
      this.dependencies.logger.info({
        msg: 'webhook attempt failed, retry scheduled',
        outcome: 'retry-scheduled',
        nextAttemptAt,
        ...log,
      });
      return 'retry-scheduled';
    }
    this.dependencies.logger.error({ msg: 'webhook delivery failed after the last retry', outcome: 'failed', ...log });
    await this.ensureAlert({ ...delivery, attemptCount: attemptNumber, alertStatus: 'pending' });
    return 'failed';
  }

  /**
   * The endpoint's health after a recorded attempt: a success ends a failing streak; a 410
   * Gone disables the endpoint at once; a failure starts a streak, or disables the
   * endpoint when the streak has lasted `disableAfterSeconds`. A streak's start or end is
   * read again by the next delivery, so the cached endpoint does not repeat the write.
   */
  private async updateHealth(
    partnerId: PartnerId,
    attempt: DeliveryAttempt,
    at: Date,
    reads: BatchReads,
  ): Promise<void> {
    const endpoint = await reads.endpoint(partnerId);
    if (!endpoint) return;
    if (attempt.succeeded) {
      if (endpoint.failingSince) {
        await this.dependencies.endpoints.markHealthy(partnerId);
        reads.forget(partnerId);
      }
      return;
    }
    if (endpoint.status !== 'enabled') return;
    if (attempt.statusCode === GONE) return this.disable(endpoint, 'the endpoint answered 410 Gone', at, reads);
    if (!endpoint.failingSince) {
      await this.dependencies.endpoints.markFailing(partnerId, new Date(attempt.attemptedAt));
      return reads.forget(partnerId);
    }
    if (at.getTime() - new Date(endpoint.failingSince).getTime() >= this.dependencies.disableAfterSeconds * 1000) {
      return this.disable(endpoint, `every delivery attempt has failed since ${endpoint.failingSince}`, at, reads);
    }
  }

  /**
   * Disables the endpoint and tells the partner, once: the status change is conditional on
   * the endpoint being enabled, so only the handler that made it sends the e-mail. An SES
   * failure is logged as an error (alarmed) and not retried: the endpoint's state, shown by
   * `webhook show`, is the lasting record.
   */
  private async disable(endpoint: WebhookEndpoint, reason: string, at: Date, reads: BatchReads): Promise<void> {
    const { partnerId } = endpoint;
    const since = at.toISOString();
    if (
      !(await this.dependencies.endpoints.changeStatus(partnerId, { status: 'disabled', reason, since }, ['enabled']))
    )
      return;
    reads.forget(partnerId);
    const log = { partnerId, url: endpoint.url, reason };
    this.dependencies.logger.error({ msg: 'webhook endpoint disabled', ...log });
    const partner = await this.dependencies.partners.getPartner(partnerId);
    if (!partner?.alertEmail) {
      this.dependencies.logger.error({ msg: 'webhook endpoint disabled and the partner has no alert address', ...log });
      return;
    }
    try {
      await this.dependencies.mailer.send({
        to: partner.alertEmail,
        subject: `Webhook endpoint disabled: ${endpoint.url}`,
        text: [
          'We have stopped sending webhooks to your endpoint.',
          '',
          `Endpoint: ${endpoint.url}`,
          `Reason:   ${reason}`,
          `Since:    ${since}`,
          '',
          'New order events are still recorded and held for you (for 30 days). Once your endpoint is',
          'fixed, contact us to enable it again: everything held is then sent, oldest first, with its',
          'original X-Service-Delivery-ID.',
        ].join('\n'),
      });
      this.dependencies.logger.info({ msg: 'webhook endpoint disabled notice sent', ...log });
      this.dependencies.metrics?.count(METRIC.alertsSent, { kind: 'endpoint-disabled' });
    } catch (error) {
      this.dependencies.logger.error({
        msg: 'webhook endpoint disabled notice could not be sent',
        error: String(error),
        ...log,
      });
    }
  }

  private async send(delivery: Delivery, at: Date, reads: BatchReads): Promise<TransportResult & { url: string }> {
    const endpoint = await reads.endpoint(delivery.partnerId);
    if (!endpoint)
      return { kind: 'error', error: 'no webhook endpoint is configured for the partner', latencyMs: 0, url: '' };
    const secrets = await this.dependencies.secrets.get(delivery.partnerId, endpoint.secretRotatedAt);
    if (!secrets)
      return {
        kind: 'error',
        error: 'no signing secret is configured for the partner',
        latencyMs: 0,
        url: endpoint.url,
      };
    // Oldest first: during a rotation's overlap the contract header keeps the old secret, the standard one carries both.
    const live = liveSecrets(secrets, at);
    const timestamp = epochSeconds(at);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'X-Service-Event': delivery.event,
      'X-Service-Signature': signWebhookBody(delivery.body, live[0] as string),
      'X-Service-Delivery-ID': delivery.deliveryId,
      'X-Service-Timestamp': String(timestamp),
      'webhook-id': delivery.deliveryId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignatureHeader(delivery.deliveryId, timestamp, delivery.body, live),
    };
    return { ...(await this.dependencies.transport.post(endpoint.url, headers, delivery.body)), url: endpoint.url };
  }

  private async queueAttempt(
    delivery: Pick<Delivery, 'deliveryId' | 'partnerId' | 'chain'>,
    attempt: number,
    dueAt: Date,
  ): Promise<void> {
    await this.dependencies.queue.send(
      {
        deliveryId: delivery.deliveryId,
        partnerId: delivery.partnerId,
        chain: delivery.chain,
        attempt,
        dueAt: dueAt.toISOString(),
      },
      Math.min(MAX_SQS_DELAY_SECONDS, hopDelaySeconds(dueAt, this.dependencies.clock.now())),
    );
  }

  /**
   * Sends the failure alert unless it went out already. The claim is a conditional write
   * with a lease: a handler that crashes after claiming leaves it to the next redelivery.
   */
  private async ensureAlert(delivery: Delivery): Promise<void> {
    if (delivery.alertStatus !== 'pending' && delivery.alertStatus !== 'sending') return;
    const now = this.dependencies.clock.now();
    const leaseUntil = new Date(now.getTime() + ALERT_LEASE_SECONDS * 1000);
    if (!(await this.dependencies.deliveries.claimAlert(delivery.deliveryId, now, leaseUntil))) {
      const current = await this.dependencies.deliveries.get(delivery.deliveryId);
      // Someone else holds the claim: fail this message so SQS brings it back after the lease.
      if (current?.alertStatus === 'sending')
        throw new Error(`failure alert of ${delivery.deliveryId} is being sent by another handler`);
      return;
    }

    const partner = await this.dependencies.partners.getPartner(delivery.partnerId);
    const log = { deliveryId: delivery.deliveryId, partnerId: delivery.partnerId, event: delivery.event };
    if (!partner?.alertEmail) {
      this.dependencies.logger.error({ msg: 'webhook delivery failed and the partner has no alert address', ...log });
      await this.dependencies.deliveries.settleAlert(delivery.deliveryId, 'no-address', now);
      return;
    }
    const attempts = await this.dependencies.deliveries.listAttempts(delivery.deliveryId);
    const last = attempts.filter((a) => a.chain === delivery.chain).at(-1);
    const lastError = last ? (last.error ?? `HTTP ${last.statusCode}`) : 'unknown';
    try {
      await this.dependencies.mailer.send({
        to: partner.alertEmail,
        subject: `Webhook delivery failed: ${delivery.event} (${delivery.deliveryId})`,
        text: [
          `We could not deliver a webhook to your endpoint after ${delivery.attemptCount} attempts and have stopped retrying.`,
          '',
          `Event:        ${delivery.event}`,
          `Delivery ID:  ${delivery.deliveryId}`,
          `Endpoint:     ${last?.url || '(none configured)'}`,
          `Last attempt: ${last?.attemptedAt ?? 'unknown'}`,
          `Last error:   ${lastError}`,
          '',
          'Please check that your endpoint is reachable and answers with a 2xx status within 30 seconds.',
          'Once it is fixed, contact us to replay the delivery; it keeps the same X-Service-Delivery-ID.',
        ].join('\n'),
      });
    } catch (error) {
      await this.dependencies.deliveries.settleAlert(delivery.deliveryId, 'pending', now);
      throw error;
    }
    await this.dependencies.deliveries.settleAlert(delivery.deliveryId, 'sent', this.dependencies.clock.now());
    this.dependencies.logger.info({ msg: 'webhook failure alert sent', ...log });
    this.dependencies.metrics?.count(METRIC.alertsSent, { kind: 'delivery-failed' });
  }

  private stale(log: Record<string, unknown>, reason: string): DispatchOutcome {
    this.dependencies.logger.info({ msg: 'webhook message skipped', outcome: 'stale', reason, ...log });
    return 'stale';
  }
}

const isSuccess = (result: TransportResult): boolean =>
  result.kind === 'response' && result.statusCode >= 200 && result.statusCode <= 299;
