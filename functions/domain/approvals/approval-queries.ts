/**
 * Who may see which approval requests, and the organization's list a page at a time.
 */
import { ValidationFailed } from '../errors';
import type { Organization, OrganizationId, Profile } from '../organizations/organization';
import { roleOf } from '../organizations/organization';
import type { Partner } from '../partners/partner';
import {
  DEFAULT_APPROVAL_PAGE_SIZE,
  MAX_APPROVAL_PAGE_SIZE,
  type ApprovalPage,
  type ApprovalRepository,
} from './approval-repository';
import {
  APPROVAL_TTL_MS,
  type ApprovalRequest,
  type ApprovalRequestId,
  type ApprovalStatus,
  asOf,
} from './approval-request';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who asks to see requests. The module passes its signed-in user (`viewer`): a buyer sees
 * only their own requests, an approver every request of the organization. The partner
 * API passes its partner (and organization) only.
 */
export interface ApprovalScope {
  readonly partnerId: Partner['id'];
  readonly organizationId?: OrganizationId;
  readonly viewer?: Profile;
}

export interface ApprovalListRequest {
  /** 1-100; default 20. */
  readonly limit?: number;
  readonly cursor?: string;
  /** As of now: a pending request past its expiry is `expired`. */
  readonly status?: ApprovalStatus;
  /** Only this requester's. */
  readonly profileId?: Profile['id'];
  /** Only requests made at or after this ISO 8601 time. */
  readonly since?: string;
  /**
   * Stripe-style: the page starts after this request of the same organization (the last
   * one of the previous page); an unknown request, or another organization's, throws
   * ValidationFailed on `starting_after`.
   */
  readonly startingAfter?: string;
}

/** The request the id names, as stored; anything but a UUID names none and is never looked up. */
export async function findRequest(
  approvals: Pick<ApprovalRepository, 'get'>,
  requestId: string,
): Promise<ApprovalRequest | undefined> {
  return UUID.test(requestId) ? approvals.get(requestId.toLowerCase() as ApprovalRequestId) : undefined;
}

export function visibleTo(request: ApprovalRequest, scope: ApprovalScope): boolean {
  if (request.partnerId !== scope.partnerId) return false;
  if (scope.organizationId !== undefined && request.organizationId !== scope.organizationId) return false;
  const { viewer } = scope;
  if (!viewer) return true;
  return (
    viewer.organizationId === request.organizationId &&
    (viewer.id === request.profileId || roleOf(viewer) === 'approver')
  );
}

/** The organization's requests, newest first, a page at a time, each as it is at `now`. */
export async function listOrganizationRequests(
  approvals: Pick<ApprovalRepository, 'listByOrganization'>,
  now: Date,
  organization: Pick<Organization, 'id'>,
  query: ApprovalListRequest,
): Promise<ApprovalPage> {
  const limit = query.limit ?? DEFAULT_APPROVAL_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_APPROVAL_PAGE_SIZE) {
    throw new ValidationFailed([
      {
        code: limit < 1 ? 'TOO_SMALL' : 'TOO_BIG',
        message: `limit must be an integer from 1 to ${MAX_APPROVAL_PAGE_SIZE}`,
        path: ['limit'],
      },
    ]);
  }
  // Nothing created before the expiry window can still wait: bounding the read keeps the
  // pending list from paging through the organization's whole history.
  const since =
    query.since ?? (query.status === 'pending' ? new Date(now.getTime() - APPROVAL_TTL_MS).toISOString() : undefined);
  const page = await approvals.listByOrganization(organization.id, {
    limit,
    now,
    ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.profileId === undefined ? {} : { profileId: query.profileId }),
    ...(since === undefined ? {} : { since }),
    ...(query.startingAfter === undefined ? {} : { startingAfter: query.startingAfter }),
  });
  return { ...page, requests: page.requests.map((request) => asOf(request, now)) };
}
