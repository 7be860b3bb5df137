import { correlate } from '../domain/correlation';
import type { Delivery, DeliveryId, DeliveryMessage } from './delivery';
import type { AdmissionTicket } from './endpoint-circuit';
import { hopDelaySeconds } from './retry-schedule';
import { recordAttempt } from './dispatch/attempt-outcome';
import { type BatchReads, readBatch } from './dispatch/batch-reads';
import type { WebhookDispatcherDependencies } from './dispatch/dispatch-dependencies';
import { type DispatchOutcome, queueAttempt, skipped } from './dispatch/dispatch-outcome';
import { FairDelivery } from './dispatch/fair-delivery';
import { ensureFailureAlert } from './dispatch/failure-alert';
import { type PostResult, postSigned } from './dispatch/signed-post';
import { moveUnanswered, pathAfterAnswer, routeBeforeSending } from './dispatch/dispatch-path';

/** What the handler gets for one queue batch: `dispatch` once per message of the batch. */
export interface DispatchBatch {
  dispatch(message: DeliveryMessage): Promise<DispatchOutcome>;
}

/** What a batch's messages share: its reads, and fair delivery's lanes to each endpoint. */
interface Batch {
  readonly reads: BatchReads;
  readonly fair: FairDelivery;
}

/**
 * Handles the messages of the deliveries queue: each is one attempt of one delivery, or a
 * hop when the attempt is not due yet. Every message reads its delivery first, so a message
 * handled before, or overtaken by a replay, never reaches the partner again; state changes
 * are conditional on the delivery's chain and attempt count, so a message handled twice at
 * once (SQS redelivers after a crash or timeout) neither counts an attempt twice nor marks
 * delivered what was not, nor alerts twice.
 *
 * One message's path, in the order of this file: its delivery is read (`readDelivery`:
 * stale or unknown messages stop there), an attempt not due yet hops (`notDue`), a paused
 * or disabled endpoint holds it (`hold`), fair delivery admits or defers it
 * (dispatch/fair-delivery.ts), the signed POST is made (dispatch/signed-post.ts), and its
 * outcome is recorded with the endpoint's health and the failure alert
 * (dispatch/attempt-outcome.ts, endpoint-health.ts, failure-alert.ts).
 *
 * The same dispatcher serves the fast and the slow path (dispatch/dispatch-path.ts): on the
 * fast path an attempt to an endpoint on the slow path moves there before admission, and an
 * attempt unanswered within the budget gives its slot back and moves there; on the slow path
 * the send is claimed first, so an attempt moved twice (a crash between the move and the
 * fast message's deletion) is still sent once.
 */
export class WebhookDispatcher {
  constructor(private readonly dependencies: WebhookDispatcherDependencies) {}

  /** Starts a queue batch: its shared reads (dispatch/batch-reads.ts) begin now. */
  batch(messages: readonly DeliveryMessage[]): DispatchBatch {
    const reads = readBatch(messages, this.dependencies);
    const batch: Batch = { reads, fair: new FairDelivery(this.dependencies, reads) };
    return { dispatch: (message) => this.dispatch(message, batch) };
  }

  private async dispatch(message: DeliveryMessage, batch: Batch): Promise<DispatchOutcome> {
    const delivery = await this.readDelivery(message, batch.reads);
    if (typeof delivery === 'string') return delivery;
    const now = this.dependencies.clock.now();
    if (now < new Date(message.dueAt)) return this.notDue(message, now);
    const endpoint = await batch.reads.endpoint(delivery.partnerId);
    if (endpoint && endpoint.status !== 'enabled') return this.hold(delivery, now, batch);
    return this.admitted(delivery, message, now, batch);
  }

  /** The delivery a message names, read; or why the message is not to be attempted. */
  private async readDelivery(message: DeliveryMessage, reads: BatchReads): Promise<Delivery | DispatchOutcome> {
    const { logger } = this.dependencies;
    const deliveryId = message.deliveryId as DeliveryId;
    const delivery = await reads.delivery(deliveryId);
    const log = { deliveryId, chain: message.chain, attempt: message.attempt };
    if (!delivery) {
      logger.error({ msg: 'webhook message for an unknown delivery', ...log });
      return 'unknown-delivery';
    }
    if (delivery.chain !== message.chain) return skipped(logger, log, 'superseded by a replay');
    if (delivery.status === 'failed') {
      // A redelivered final attempt: the alert may not have gone out before the crash.
      await ensureFailureAlert(this.dependencies, delivery);
      return skipped(logger, log, 'delivery already failed');
    }
    if (delivery.status === 'delivered') return skipped(logger, log, 'delivery already delivered');
    if (message.attempt !== delivery.attemptCount + 1) {
      // This attempt was recorded but the handler stopped before its retry was queued; unless
      // the message was due after the record: its attempt was made early (a partner's retry).
      if (
        message.attempt === delivery.attemptCount &&
        delivery.nextAttemptAt &&
        Date.parse(message.dueAt) <= Date.parse(delivery.updatedAt)
      ) {
        await queueAttempt(this.dependencies, delivery, delivery.attemptCount + 1, new Date(delivery.nextAttemptAt));
      }
      return skipped(logger, log, 'attempt already recorded');
    }
    return delivery;
  }

  /** The attempt is not due yet: the message goes back to the queue, as close to its due time as SQS allows. */
  private async notDue(message: DeliveryMessage, now: Date): Promise<DispatchOutcome> {
    const delaySeconds = hopDelaySeconds(new Date(message.dueAt), now);
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

  /**
   * The endpoint is paused or disabled: the delivery stays pending, marked held, and its
   * message is consumed; resume or enable queues it again. An endpoint enabled between
   * the batch's read and the hold would leave it held with nobody to release it, so the
   * endpoint is read again after holding and the delivery released and sent at once if so.
   */
  private async hold(delivery: Delivery, now: Date, batch: Batch): Promise<DispatchOutcome> {
    const { deliveries, logger } = this.dependencies;
    const { deliveryId, partnerId, chain } = delivery;
    const attempt = delivery.attemptCount + 1;
    const log = { deliveryId, partnerId, chain, attempt };
    if (!(await deliveries.hold(delivery, now))) return skipped(logger, log, 'delivery changed before it was held');
    batch.reads.forget(partnerId);
    const endpoint = await batch.reads.endpoint(partnerId);
    if (endpoint?.status === 'enabled' && (await deliveries.release(deliveryId, chain, now, now))) {
      return this.admitted(delivery, { deliveryId, partnerId, chain, attempt, dueAt: now.toISOString() }, now, batch);
    }
    logger.info({ msg: 'webhook delivery held', outcome: 'held', endpointStatus: endpoint?.status, ...log });
    return 'held';
  }

  /** Fair delivery lets the attempt go, defers it, or (its circuit open too long) counts it failed unsent. */
  private async admitted(
    delivery: Delivery,
    message: DeliveryMessage,
    now: Date,
    batch: Batch,
  ): Promise<DispatchOutcome> {
    const endpoint = await batch.reads.endpoint(delivery.partnerId);
    const routed = await routeBeforeSending(this.dependencies, delivery, message, endpoint, now);
    if (routed) return routed;
    const pass = await batch.fair.admit(delivery, message, now);
    switch (pass.kind) {
      case 'deferred':
        return 'deferred';
      case 'unsent': {
        const endpoint = await batch.reads.endpoint(delivery.partnerId);
        const error = `not sent: the endpoint's circuit is open${pass.openedAt ? ` (since ${pass.openedAt})` : ''}`;
        const result: PostResult = { kind: 'error', error, latencyMs: 0, url: endpoint?.url ?? '' };
        return recordAttempt(this.dependencies, delivery, message.attempt, pass.at, result, batch.reads, pass.dueAt);
      }
      case 'go':
        try {
          return await this.attempt(delivery, message, pass.at, batch, pass.ticket);
        } finally {
          pass.leave();
        }
    }
  }

  /** The signed POST; its outcome settles the admission ticket, then is recorded (or it moves to the slow path). */
  private async attempt(
    delivery: Delivery,
    message: DeliveryMessage,
    startedAt: Date,
    batch: Batch,
    ticket?: AdmissionTicket,
  ): Promise<DispatchOutcome> {
    // The attempt's lines carry the request that made the order change, and the order's ids.
    const { eventId, requestId, orderId, organizationId, partnerId, deliveryId } = delivery;
    correlate({ eventId, requestId, orderId, organizationId, partnerId, deliveryId });
    const { path, logger } = this.dependencies;
    const giveBack = () =>
      ticket ? batch.fair.release(partnerId, ticket).catch(() => undefined) : Promise.resolve(undefined);
    if (path.kind === 'slow' && !(await this.claimSend(delivery, message.attempt, startedAt))) {
      await giveBack();
      const log = { deliveryId, partnerId, chain: delivery.chain, attempt: message.attempt };
      return skipped(logger, log, 'another consumer is sending this attempt, or it was recorded');
    }
    let result: PostResult;
    try {
      const budget = path.kind === 'fast' ? path.budgetMs : undefined;
      result = await postSigned(this.dependencies, delivery, startedAt, batch.reads, budget);
    } catch (error) {
      if (ticket) await batch.fair.settle(partnerId, ticket, undefined).catch(() => undefined);
      throw error;
    }
    if (path.kind === 'fast' && path.budgetMs !== undefined && result.kind === 'error' && result.timedOut) {
      // Unanswered within the budget: the slow path makes this attempt and counts its outcome.
      await giveBack();
      return moveUnanswered(this.dependencies, delivery, message, this.dependencies.clock.now());
    }
    if (ticket) {
      // The POST happened: a failed release must not fail the message (SQS would send it again). The lease lapses by itself.
      await batch.fair.settle(partnerId, ticket, result).catch((error: unknown) =>
        logger.error({
          msg: 'webhook endpoint gate not settled; its lease lapses',
          partnerId,
          deliveryId,
          error: String(error),
        }),
      );
    }
    await pathAfterAnswer(this.dependencies, await batch.reads.endpoint(partnerId), result).catch((error: unknown) =>
      logger.error({ msg: 'webhook endpoint not moved back to the fast path', partnerId, error: String(error) }),
    );
    return recordAttempt(this.dependencies, delivery, message.attempt, startedAt, result, batch.reads);
  }

  /** The slow path's claim of a moved attempt's POST, held as long as an in-flight lease. */
  private claimSend(delivery: Delivery, attempt: number, now: Date): Promise<boolean> {
    const leaseUntil = new Date(now.getTime() + this.dependencies.attemptLeaseSeconds * 1000);
    return this.dependencies.slowPathMoves.claimSend(delivery, attempt, now, leaseUntil);
  }
}
