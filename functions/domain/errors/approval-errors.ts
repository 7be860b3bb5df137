/** Approval requests: an order above the user's limit, and an approver's decision on it. */
import type { LimitReason } from '../spending/monthly-spend';
import { DomainError } from './domain-error';

/**
 * An order above the user's order limit, or one that would take the user's placed total
 * for the month above their monthly limit, was to be placed: it needs an approver's
 * decision (the module offers "Submit for approval" instead). Nothing was ordered.
 */
export class ApprovalRequired extends DomainError {
  override readonly name = 'ApprovalRequired';
  constructor(
    readonly totalCents: number,
    readonly limitCents: number,
    readonly reason: LimitReason = 'order_limit',
    /** What the user's orders already total this month, for `monthly_limit`. */
    readonly spentCents?: number,
  ) {
    super(
      reason === 'order_limit'
        ? `The order's total (${totalCents} cents) is above the user's order limit (${limitCents} cents)`
        : `The order's total (${totalCents} cents) would take the month's orders above the user's monthly limit (${limitCents} cents)`,
    );
  }
}

/**
 * The month's total of a user's orders would pass their monthly limit (a parallel order
 * took the room first): the order's transaction wrote nothing.
 */
export class MonthlyLimitReached extends DomainError {
  override readonly name = 'MonthlyLimitReached';
}

/** No approval request with this id that the user may see (another organization's, or another requester's for a buyer). */
export class ApprovalNotFound extends DomainError {
  override readonly name = 'ApprovalNotFound';
  constructor(readonly requestId: string) {
    super(`No approval request ${requestId}`);
  }
}

/**
 * A decision or withdrawal of a request that is no longer waiting: someone decided it
 * first (another approver, the requester withdrawing), or it expired. Says what became of
 * it; nothing was changed.
 */
export class ApprovalNotPending extends DomainError {
  override readonly name = 'ApprovalNotPending';
  constructor(
    readonly requestId: string,
    readonly status: 'approved' | 'rejected' | 'expired' | 'withdrawn',
    /** Who decided it, when an approver did. */
    readonly decidedBy?: string,
  ) {
    super(`Approval request ${requestId} is ${status}${decidedBy ? ` (by ${decidedBy})` : ''}`);
  }
}

/** An approver tried to approve or reject their own request: another approver must decide it. */
export class SelfApprovalForbidden extends DomainError {
  override readonly name = 'SelfApprovalForbidden';
  constructor(readonly requestId: string) {
    super(`Approval request ${requestId} is the approver's own`);
  }
}

/** A user who is not an approver tried to decide a request, or someone other than its requester to withdraw it. */
export class ApprovalForbidden extends DomainError {
  override readonly name = 'ApprovalForbidden';
  constructor(
    readonly requestId: string,
    readonly refused: 'not-approver' | 'not-requester',
  ) {
    super(
      refused === 'not-approver'
        ? `Only approvers decide approval requests (${requestId})`
        : `Only its requester withdraws approval request ${requestId}`,
    );
  }
}

/**
 * An approval that would place an order the requester could not place now: the request's
 * shipping location is no longer active, or the requester was deactivated or removed.
 * Nothing was ordered; the request still waits (reject it, or let it expire).
 */
export class ApprovalCannotBePlaced extends DomainError {
  override readonly name = 'ApprovalCannotBePlaced';
  constructor(
    readonly requestId: string,
    readonly refused: 'location-unavailable' | 'requester-inactive',
  ) {
    super(
      refused === 'location-unavailable'
        ? `Approval request ${requestId} ships to a location that is no longer active`
        : `The requester of approval request ${requestId} can no longer order`,
    );
  }
}

/**
 * `Edit and resubmit` of a request that cannot be resubmitted: not the user's own, still
 * waiting or approved or withdrawn (`not-closed`), or resubmitted already (`resubmittedBy`).
 * Nothing was changed.
 */
export class ApprovalNotResubmittable extends DomainError {
  override readonly name = 'ApprovalNotResubmittable';
  constructor(
    readonly requestId: string,
    readonly refused: 'not-requester' | 'not-closed' | 'already-resubmitted',
    readonly resubmittedBy?: string,
  ) {
    super(`Approval request ${requestId} cannot be resubmitted (${refused})`);
  }
}
