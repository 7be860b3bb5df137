/**
 * An approval request: a cart above its user's order limit, priced and snapshotted as the
 * order would be, waiting for an approver of the same organization. Approving it places
 * exactly that order; rejecting, withdrawing or expiring it places nothing. Each request
 * has one outcome, decided by the first of them to commit (docs/module.md, "Approvals").
 */
import { ApprovalNotPending } from '../errors';
import type { Cents } from '../money';
import type { LimitReason } from '../spending/monthly-spend';
import type { OrderItem, ShippingAddressSnapshot } from '../orders/order';
import type { OrderSalesTax } from '../orders/order-pricing';
import type { OrganizationId, Profile, ProfileId, ShippingLocationId } from '../organizations/organization';
import type { PartnerId } from '../partners/partner';

export type ApprovalRequestId = string & { readonly __brand: 'ApprovalRequestId' };

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'withdrawn'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type ApprovalOutcome = Exclude<ApprovalStatus, 'pending'>;

/** How long a request waits for a decision. */
export const APPROVAL_TTL_MS = 7 * 24 * 3600 * 1000;
/** The longest reason an approver may give for a rejection, and the longest comment on an approval. */
export const MAX_REJECTION_REASON_LENGTH = 500;

/** A user as a request names them: the requester or whoever decided it. */
export interface ApprovalParty {
  readonly profileId: ProfileId;
  readonly internalUserId: string;
  readonly email: string;
  /** First and last name when the request was made or decided, for the pages. */
  readonly name: string;
}

export interface ApprovalRequest {
  readonly id: ApprovalRequestId;
  readonly partnerId: PartnerId;
  readonly organizationId: OrganizationId;
  /** The partner's identifier of the organization: webhooks call it `partner_org_id`. */
  readonly internalOrgId: string;
  /** The requester. */
  readonly profileId: ProfileId;
  readonly internalUserId: string;
  readonly email: string;
  readonly requesterName: string;
  readonly shippingLocationId: ShippingLocationId;
  /** Where the order will go, as the order will have it. */
  readonly shippingAddress: ShippingAddressSnapshot;
  /** The cart as it was priced at submission: approving orders exactly these, at these prices. */
  readonly items: readonly OrderItem[];
  readonly subtotalCents: Cents;
  readonly taxCents: Cents;
  readonly shippingCents: Cents;
  readonly totalCents: Cents;
  /** The Stripe Tax calculation of `taxCents`: the approved order carries it to its invoice. */
  readonly salesTax?: OrderSalesTax;
  readonly poNumber?: string;
  readonly notes?: string;
  /** Which limit sent it to approval; absent on requests made before monthly limits, all of which were `order_limit`. */
  readonly limitReason?: LimitReason;
  /** As stored; readers see a pending request past `expiresAt` as expired (`asOf`). */
  readonly status: ApprovalStatus;
  readonly createdAt: string;
  /** `createdAt` + 7 days. */
  readonly expiresAt: string;
  readonly decidedAt?: string;
  /** The approver, on approved and rejected requests. */
  readonly decidedBy?: ApprovalParty;
  /** The approver's reason, on rejected requests. */
  readonly reason?: string;
  /** The approver's comment, on approved requests when one was given. */
  readonly comment?: string;
  /** The order placed, on approved requests. */
  readonly orderId?: string;
  /** The rejected or expired request of the same requester this one resubmits. */
  readonly resubmittedFrom?: ApprovalRequestId;
  /** The request that resubmitted this one (rejected or expired): set once, by that request's submission. */
  readonly resubmittedBy?: ApprovalRequestId;
  /** 1 at submission, +1 per change: the optimistic-concurrency version. */
  readonly version: number;
}

export const partyOf = (profile: Profile): ApprovalParty => ({
  profileId: profile.id,
  internalUserId: profile.internalUserId,
  email: profile.email,
  name: `${profile.firstName} ${profile.lastName}`,
});

/** Whether the request is still waiting at `now`: stored as pending and not yet past its expiry. */
export const isPendingAt = (request: ApprovalRequest, now: Date): boolean =>
  request.status === 'pending' && now.getTime() < Date.parse(request.expiresAt);

/**
 * The request as it is at `now`: a pending one past its expiry is expired (decided at its
 * expiry), whether or not the sweep has recorded it yet, so every read agrees.
 */
export function asOf(request: ApprovalRequest, now: Date): ApprovalRequest {
  if (request.status !== 'pending' || isPendingAt(request, now)) return request;
  return { ...request, status: 'expired', decidedAt: request.expiresAt };
}

/** The refusal of a decision on a request that no longer waits, saying what became of it. */
export function notPending(request: ApprovalRequest): ApprovalNotPending {
  if (request.status === 'pending') throw new RangeError(`Approval request ${request.id} is pending`);
  return new ApprovalNotPending(request.id, request.status, request.decidedBy?.name);
}

/** Whether its requester may still put it back in the cart to submit again: rejected or expired (at `now`), and not resubmitted yet. */
export const isResubmittableAt = (request: ApprovalRequest, now: Date): boolean => {
  const status = asOf(request, now).status;
  return (status === 'rejected' || status === 'expired') && request.resubmittedBy === undefined;
};
