/**
 * What every change to an approval request shares: its event carries the ids of the request
 * under way, its outcome is counted, and a write that lost the race says what won it.
 */
import type { Clock } from '../clock';
import { type Correlation, correlate } from '../correlation';
import { ConcurrentModification } from '../errors';
import type { OrderEventMessage } from '../events/order-event-message';
import { METRIC, type Metrics } from '../metrics';
import type { ApprovalRepository } from './approval-repository';
import {
  type ApprovalOutcome,
  type ApprovalRequest,
  type ApprovalRequestId,
  asOf,
  isPendingAt,
  notPending,
} from './approval-request';

export interface ApprovalChanges {
  readonly approvals: ApprovalRepository;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly correlation: () => Correlation;
}

/** The event with the ids that follow it to every delivery attempt (never into the partner's payload). */
export function correlatedEvent(
  changes: Pick<ApprovalChanges, 'correlation'>,
  request: ApprovalRequest,
  event: OrderEventMessage,
): OrderEventMessage {
  const { requestId } = changes.correlation();
  correlate({
    partnerId: request.partnerId,
    organizationId: request.organizationId,
    ...(request.orderId === undefined ? {} : { orderId: request.orderId }),
    approvalRequestId: request.id,
    eventId: event.eventId,
  });
  return { ...event, ...(requestId ? { requestId } : {}) };
}

export function countOutcome(changes: Pick<ApprovalChanges, 'metrics'>, outcome: 'submitted' | ApprovalOutcome): void {
  changes.metrics.count(METRIC.approvalRequests, { outcome });
}

/** Runs a conditional write; a lost race becomes the page that says what won it. */
export async function writtenWhileWaiting(
  changes: Pick<ApprovalChanges, 'approvals' | 'clock'>,
  requestId: ApprovalRequestId,
  write: () => Promise<void>,
): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!(error instanceof ConcurrentModification)) throw error;
    const current = await changes.approvals.get(requestId);
    const now = changes.clock.now();
    // Still waiting: the cart changed under a withdrawal, or the write lost a transaction conflict; the caller retries.
    if (!current || isPendingAt(current, now)) throw error;
    throw notPending(asOf(current, now));
  }
}
