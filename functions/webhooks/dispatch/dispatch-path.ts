import { METRIC, noMetrics } from '../../domain/metrics';
import type { MessageQueue } from '../../domain/events/message-queue';
import type { Delivery, DeliveryMessage } from '../delivery';
import { circuitDeferral } from '../endpoint-circuit';
import { slowPathKey } from '../slow-path-moves';
import type { TransportResult } from '../webhook-transport';
import type { WebhookEndpoint } from '../webhook-endpoint';
import type { WebhookDispatcherDependencies } from './dispatch-dependencies';
import { type DispatchOutcome, skipped } from './dispatch-outcome';

/**
 * Which path a dispatcher serves (docs/webhooks.md, "Fast and slow paths"). The fast path
 * gives each POST `budgetMs` to answer and hands an unanswered attempt to the slow path's
 * queue; the slow path gives it the transport's full deadline, with its own concurrency. Both
 * know the budget: an answer within it on the slow path brings the endpoint back. A budget
 * absent on the fast path (not shorter than the transport's deadline) moves nothing unanswered.
 */
export type DispatchPath =
  | { readonly kind: 'fast'; readonly budgetMs?: number; readonly slowQueue: MessageQueue<DeliveryMessage> }
  | { readonly kind: 'slow'; readonly budgetMs: number };

/**
 * The fast path's budget: 2 s. A receiver that does its work after answering (as the contract
 * asks) answers in well under a second, the big partner's in 250 ms, so 2 s cuts off only
 * receivers that are slow or hanging; and it bounds a batch of ten at about 2 s instead of
 * 30 s, so a hundred endpoints that start hanging at once hold the fast path's twenty batches
 * for seconds, not minutes (docs/decisions.md, "The fast path's budget").
 */
export const FAST_PATH_BUDGET_MS = 2000;

type PathDependencies = Pick<
  WebhookDispatcherDependencies,
  'path' | 'slowPathMoves' | 'endpoints' | 'logger' | 'metrics'
>;

/**
 * On the fast path, before admission: an attempt already moved goes (again) to the slow
 * path's queue; one to an endpoint on the slow path moves there before any POST (unless its
 * circuit already defers it, which costs no POST). Undefined: the attempt stays on this path.
 */
export async function routeBeforeSending(
  dependencies: PathDependencies,
  delivery: Delivery,
  message: DeliveryMessage,
  endpoint: WebhookEndpoint | undefined,
  now: Date,
): Promise<DispatchOutcome | undefined> {
  if (dependencies.path.kind !== 'fast') return undefined;
  if (delivery.slowPathAttempt === slowPathKey(delivery.chain, message.attempt))
    return forward(dependencies, delivery, message, 'moved before a crash; queued again for the slow path');
  if (!endpoint?.slowPathSince || circuitDeferral(endpoint.circuit, now)) return undefined;
  return moveToSlowPath(dependencies, delivery, message, 'known-slow');
}

/** The fast path's attempt went unanswered within the budget: the endpoint and the attempt go to the slow path. */
export async function moveUnanswered(
  dependencies: PathDependencies,
  delivery: Delivery,
  message: DeliveryMessage,
  at: Date,
): Promise<DispatchOutcome> {
  const { budgetMs = 0 } = dependencies.path;
  const moved = await dependencies.endpoints.markSlowPath(
    delivery.partnerId,
    at,
    `an attempt had no answer within the fast path's ${budgetMs} ms (delivery ${delivery.deliveryId}, ${at.toISOString()})`,
  );
  if (moved) {
    (dependencies.metrics ?? noMetrics).count(METRIC.endpointPathChanges, { to: 'slow' });
    dependencies.logger.info({ msg: 'webhook endpoint moved to the slow path', partnerId: delivery.partnerId });
  }
  return moveToSlowPath(dependencies, delivery, message, 'over-budget');
}

/** The slow path's answer came within the budget: the endpoint goes back to the fast path. */
export async function pathAfterAnswer(
  dependencies: PathDependencies,
  endpoint: WebhookEndpoint | undefined,
  result: TransportResult,
): Promise<void> {
  if (dependencies.path.kind !== 'slow' || !endpoint?.slowPathSince) return;
  if (result.kind === 'error' && result.timedOut) return;
  if (result.latencyMs > dependencies.path.budgetMs) return;
  if (!(await dependencies.endpoints.markFastPath(endpoint.partnerId))) return;
  (dependencies.metrics ?? noMetrics).count(METRIC.endpointPathChanges, { to: 'fast' });
  dependencies.logger.info({ msg: 'webhook endpoint back on the fast path', partnerId: endpoint.partnerId });
}

/** The move is written on the delivery first, then its message queued: a crash between leaves the fast message to forward it. */
async function moveToSlowPath(
  dependencies: PathDependencies,
  delivery: Delivery,
  message: DeliveryMessage,
  reason: 'known-slow' | 'over-budget',
): Promise<DispatchOutcome> {
  const log = {
    deliveryId: delivery.deliveryId,
    partnerId: delivery.partnerId,
    chain: delivery.chain,
    attempt: message.attempt,
  };
  if (!(await dependencies.slowPathMoves.move(delivery, message.attempt)))
    return skipped(dependencies.logger, log, 'delivery changed before its attempt moved to the slow path');
  (dependencies.metrics ?? noMetrics).count(METRIC.slowPathMoves, { reason });
  return forward(dependencies, delivery, message, reason);
}

async function forward(
  dependencies: PathDependencies,
  delivery: Delivery,
  message: DeliveryMessage,
  reason: string,
): Promise<DispatchOutcome> {
  if (dependencies.path.kind !== 'fast') return 'moved';
  await dependencies.path.slowQueue.send({ ...message, partnerId: delivery.partnerId }, 0);
  dependencies.logger.info({
    msg: 'webhook attempt moved to the slow path',
    outcome: 'moved',
    reason,
    deliveryId: delivery.deliveryId,
    partnerId: delivery.partnerId,
    chain: delivery.chain,
    attempt: message.attempt,
  });
  return 'moved';
}
