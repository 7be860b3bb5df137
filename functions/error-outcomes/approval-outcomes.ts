/** Approval requests (docs/module.md, "Approvals"); the API codes are for the partner routes that read and decide them. */
import {
  ApprovalCannotBePlaced,
  ApprovalForbidden,
  ApprovalNotFound,
  ApprovalNotPending,
  ApprovalRequired,
  SelfApprovalForbidden,
} from '../domain/errors';
import { formatUsd, fromCents } from '../domain/money';
import { type Entry, entry, general, toOrders, toRequest } from './outcome-kit';

/** What became of a request someone else decided first, for the one who came second. */
const NOT_PENDING: Readonly<
  Record<ApprovalNotPending['status'], { title: string; message: (by: string | undefined) => string }>
> = {
  approved: {
    title: 'Already approved',
    message: (by) =>
      `${by ?? 'Another approver'} approved this request first, and its order was placed. Nothing else was changed.`,
  },
  rejected: {
    title: 'Already rejected',
    message: (by) => `${by ?? 'Another approver'} rejected this request first. Nothing else was changed.`,
  },
  withdrawn: {
    title: 'Withdrawn by the requester',
    message: () => 'The requester withdrew this request, so there is nothing left to decide. Nothing else was changed.',
  },
  expired: {
    title: 'This request expired',
    message: () =>
      'No one decided it within 7 days, so it expired and nothing was ordered. The requester can submit it again.',
  },
};

export const APPROVAL_OUTCOMES: readonly Entry[] = [
  // Approval requests (docs/module.md, "Approvals"); the API codes are for the partner routes that read and decide them.
  entry(ApprovalRequired, {
    api: {
      general: general(409, 'APPROVAL_REQUIRED', (error) => ({
        data:
          error.reason === 'order_limit'
            ? {
                limit_reason: error.reason,
                total: fromCents(error.totalCents),
                order_limit: fromCents(error.limitCents),
              }
            : {
                limit_reason: error.reason,
                total: fromCents(error.totalCents),
                monthly_limit: fromCents(error.limitCents),
                spent_this_month: fromCents(error.spentCents ?? 0),
              },
      })),
    },
    module: (error, places) => ({
      status: 409,
      title: 'This order needs approval',
      message: `${
        error.reason === 'order_limit'
          ? `Its total, ${formatUsd(error.totalCents)}, is above your order limit of ${formatUsd(error.limitCents)}`
          : `Its total, ${formatUsd(error.totalCents)}, would take this month's orders above your monthly limit of ${formatUsd(error.limitCents)}`
      }, so an approver in your organization decides on it. Nothing was ordered: submit it for approval from checkout.`,
      links: [{ href: places.checkout, label: 'Back to checkout', primary: true }],
    }),
  }),
  entry(ApprovalNotFound, {
    api: { general: general(404, 'APPROVAL_REQUEST_NOT_FOUND') },
    module: (_, places) => ({
      status: 404,
      title: 'Approval request not found',
      message: 'Your organization has no approval request with this ID that you can see.',
      links: [{ href: places.approvals, label: 'Approval requests', primary: true }, toOrders(places)],
    }),
  }),
  entry(ApprovalNotPending, {
    api: {
      general: general(409, 'APPROVAL_NOT_PENDING', (error) => ({
        data: { approval_request_id: error.requestId, status: error.status },
      })),
    },
    module: (error, places) => ({
      status: 409,
      title: NOT_PENDING[error.status].title,
      message: NOT_PENDING[error.status].message(error.decidedBy),
      links: [toRequest(places, error.requestId)],
    }),
  }),
  entry(SelfApprovalForbidden, {
    api: { general: general(403, 'SELF_APPROVAL_FORBIDDEN') },
    module: (error, places) => ({
      status: 403,
      title: 'This is your own request',
      message: 'Another approver in your organization decides on it. Nothing was changed.',
      links: [toRequest(places, error.requestId)],
    }),
  }),
  entry(ApprovalForbidden, {
    api: { general: general(403, 'APPROVAL_FORBIDDEN') },
    module: (error, places) => ({
      status: 403,
      title: error.refused === 'not-approver' ? 'Only approvers decide requests' : 'Only the requester can withdraw it',
      message:
        error.refused === 'not-approver'
          ? 'Approving and rejecting requests is for the approvers of your organization. Nothing was changed.'
          : 'A request can be withdrawn only by whoever submitted it. Nothing was changed.',
      links: [toRequest(places, error.requestId)],
    }),
  }),
  entry(ApprovalCannotBePlaced, {
    api: {
      general: general(409, 'APPROVAL_CANNOT_BE_PLACED', (error) => ({
        details: [
          {
            code: error.refused === 'location-unavailable' ? 'SHIPPING_LOCATION_UNAVAILABLE' : 'REQUESTER_INACTIVE',
            message: error.message,
            path: [],
          },
        ],
      })),
    },
    module: (error, places) => ({
      status: 409,
      title:
        error.refused === 'location-unavailable'
          ? 'The shipping address is no longer used'
          : 'The requester can no longer order',
      message:
        error.refused === 'location-unavailable'
          ? 'This request ships to a location your organization no longer uses, so it cannot be ordered as submitted. Nothing was ordered: reject it with a reason, and the requester can submit it again to another address.'
          : 'The person who submitted this request was deactivated, so it cannot be ordered in their name. Nothing was ordered: reject it with a reason.',
      links: [toRequest(places, error.requestId)],
    }),
  }),
];
