/**
 * Expiry: a request undecided 7 days after it was made is expired at its `expiresAt`, with
 * its approval.decided, one at a time or by the scheduled sweep.
 */
import { ConcurrentModification } from '../errors';
import { approvalDecidedEvent } from './approval-events';
import { findRequest } from './approval-queries';
import { type ApprovalRequest, type ApprovalRequestId, asOf, isPendingAt } from './approval-request';
import { type ApprovalChanges, correlatedEvent, countOutcome } from './approval-writes';

/** Due requests one sweep tries at most; the next sweep takes the rest. */
const MAX_EXPIRED_PER_SWEEP = 1000;
const DUE_BATCH = 100;

/**
 * Records the expiry of every pending request past its expiry at `now`, any organization,
 * at most 1000 a call. Returns the ids it expired.
 */
export async function expireDueRequests(changes: ApprovalChanges, now: Date): Promise<ApprovalRequestId[]> {
  const expired: ApprovalRequestId[] = [];
  let cursor: string | undefined;
  let tried = 0;
  // Pages follow each other by key, so a due item the index still lists after its request was decided is passed once, never re-read.
  do {
    const page = await changes.approvals.listDue(now, DUE_BATCH, cursor);
    for (const id of page.ids) {
      tried += 1;
      if ((await expireRequest(changes, id, now)).expiredNow) expired.push(id);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined && tried < MAX_EXPIRED_PER_SWEEP);
  return expired;
}

/**
 * Expires one request if it is pending and past its expiry at `now`; returns it as it is
 * afterwards (none when there is none), and whether this call expired it. One decided (or
 * expired by another sweep) meanwhile is left as it is.
 */
export async function expireRequest(
  changes: ApprovalChanges,
  requestId: string,
  now: Date,
): Promise<{ request?: ApprovalRequest; expiredNow: boolean }> {
  const request = await findRequest(changes.approvals, requestId);
  if (!request || request.status !== 'pending' || isPendingAt(request, now))
    return { ...(request ? { request: asOf(request, now) } : {}), expiredNow: false };
  const expired: ApprovalRequest = {
    ...request,
    status: 'expired',
    decidedAt: request.expiresAt,
    version: request.version + 1,
  };
  try {
    await changes.approvals.decide({
      request: expired,
      expectedVersion: request.version,
      event: correlatedEvent(changes, expired, approvalDecidedEvent(expired)),
    });
  } catch (error) {
    if (!(error instanceof ConcurrentModification)) throw error;
    const current = await changes.approvals.get(request.id);
    return { ...(current ? { request: asOf(current, now) } : {}), expiredNow: false };
  }
  countOutcome(changes, 'expired');
  return { request: expired, expiredNow: true };
}
