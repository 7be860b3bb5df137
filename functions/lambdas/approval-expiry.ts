import type { Context, ScheduledEvent } from 'aws-lambda';
import {
  type ApprovalExpiryDependencies,
  approvalExpiryFromEnvironment,
} from '../composition/approval-expiry-dependencies';

export interface ApprovalExpiryResult {
  /** Requests whose expiry this run recorded, each with its approval.decided. */
  readonly expired: number;
}

/**
 * The scheduled sweep (EventBridge every APPROVAL_EXPIRY_SWEEP_MINUTES; a timer in `npm
 * start`): records the expiry of every request undecided 7 days after it was made. A
 * failed run needs no retry of its own: the next run finds the same requests due.
 */
export const createApprovalExpiryHandler =
  (getDependencies: () => Promise<ApprovalExpiryDependencies>) =>
  async (
    _event: Pick<ScheduledEvent, 'time'>,
    context?: Pick<Context, 'awsRequestId' | 'functionName'>,
  ): Promise<ApprovalExpiryResult> => {
    const deps = await getDependencies();
    if (context) deps.logger.addContext?.(context);
    try {
      // The injected clock, not the event's time: the local stack and tests move it.
      const expired = await deps.approvalService.expireDue(deps.clock.now());
      // Lambda's own START/REPORT lines show every run; a line of ours only when it changed something.
      if (expired.length > 0)
        deps.logger.info({
          msg: 'approval expiry sweep',
          expired: expired.length,
          approvalRequestIds: expired.slice(0, 50),
        });
      return { expired: expired.length };
    } finally {
      deps.metrics.flush();
    }
  };

export const handler = createApprovalExpiryHandler(approvalExpiryFromEnvironment);
