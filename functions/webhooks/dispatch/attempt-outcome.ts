import { METRIC, noMetrics } from '../../domain/metrics';
import type { Delivery, DeliveryAttempt } from '../delivery';
import type { AttemptOutcome } from '../delivery-repository';
import { RETRY_AFTER_STATUSES, retryAfterSeconds } from '../retry-schedule';
import type { BatchReads } from './batch-reads';
import type { WebhookDispatcherDependencies } from './dispatch-dependencies';
import { type DispatchOutcome, queueAttempt, skipped } from './dispatch-outcome';
import { updateEndpointHealth } from './endpoint-health';
import { ensureFailureAlert } from './failure-alert';
import { isSuccess, type PostResult } from './signed-post';

const RESPONSE_BODY_LIMIT = 1024;

/**
 * Records an attempt's result: delivered, or failed with its retry queued, or failed for
 * good with the alert; then the endpoint's health. `failedAt` is when the next wait starts:
 * when the attempt ended, or for an attempt the open circuit kept back, when it was due
 * (the ladder is not lengthened).
 */
export async function recordAttempt(
  dependencies: WebhookDispatcherDependencies,
  delivery: Delivery,
  attemptNumber: number,
  startedAt: Date,
  result: PostResult,
  reads: BatchReads,
  failedAt?: Date,
): Promise<DispatchOutcome> {
  const { clock, logger, schedule } = dependencies;
  const finishedAt = clock.now();
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
    : schedule.nextAttemptAt(attemptNumber, failedAt ?? finishedAt, askedToWait);
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
  if (!(await dependencies.deliveries.recordAttempt(delivery, outcome, finishedAt))) {
    return skipped(logger, log, 'another handler recorded this attempt first');
  }
  await updateEndpointHealth(dependencies, delivery.partnerId, attempt, finishedAt, reads);
  const metrics = dependencies.metrics ?? noMetrics;
  metrics.count(METRIC.webhookAttempts, { outcome: outcome.status === 'pending' ? 'retry-scheduled' : outcome.status });
  if (outcome.status === 'delivered') {
    // From the order change's commit; a replay (a later chain) is an operator's choice, not lag.
    if (delivery.chain === 1 && delivery.occurredAt) {
      const lag = finishedAt.getTime() - Date.parse(delivery.occurredAt);
      metrics.observe(METRIC.deliveryLag, lag);
      // A busy endpoint's own lag, on its first attempt only: a healthy endpoint's lag is then queueing, not retries.
      if (attemptNumber === 1 && dependencies.endpointVolume?.busy(delivery.partnerId, finishedAt))
        metrics.observe(METRIC.deliveryLag, lag, { partner: delivery.partnerId });
    }
    logger.info({ msg: 'webhook delivered', outcome: 'delivered', ...log });
    return 'delivered';
  }
  if (outcome.status === 'pending' && nextAttemptAt) {
    await queueAttempt(dependencies, delivery, attemptNumber + 1, nextAttemptAt);
    metrics.count(METRIC.retriesScheduled);
    logger.info({ msg: 'webhook attempt failed, retry scheduled', outcome: 'retry-scheduled', nextAttemptAt, ...log });
    return 'retry-scheduled';
  }
  logger.error({ msg: 'webhook delivery failed after the last retry', outcome: 'failed', ...log });
  await ensureFailureAlert(dependencies, { ...delivery, attemptCount: attemptNumber, alertStatus: 'pending' });
  return 'failed';
}
