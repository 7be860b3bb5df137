import type { ApprovalRequest } from '../../domain/approvals/approval-request';

/**
 * Key shapes of approval requests in the orders table (whose stream already carries the
 * outbox): the request by its id, listed per organization through gsi1 under its own
 * prefix (`APPROVALS#`, never the orders' `ORG#`), and, while it is pending, a due item
 * listed through gsi1 by expiry in one partition for the expiry sweep. Approvals are
 * people's clicks, far below one partition's write rate.
 */
export const approvalKeys = {
  request: (id: string) => ({ pk: `APPROVAL#${id}`, sk: 'REQUEST' }),
  due: (id: string) => ({ pk: `APPROVAL#${id}`, sk: 'DUE' }),
  ofOrganization: (organizationId: string) => `APPROVALS#${organizationId}`,
  duePartition: 'APPROVALS_DUE',
};

/** Status, version, expiry and requester sit beside the request for conditions and filters. */
export const requestItem = (request: ApprovalRequest) => ({
  ...approvalKeys.request(request.id),
  gsi1pk: approvalKeys.ofOrganization(request.organizationId),
  gsi1sk: `${request.createdAt}#${request.id}`,
  status: request.status,
  version: request.version,
  expiresAt: request.expiresAt,
  profileId: request.profileId,
  request,
});

export const keyOf = (request: ApprovalRequest) => {
  const { pk, sk, gsi1pk, gsi1sk } = requestItem(request);
  return { pk, sk, gsi1pk, gsi1sk };
};
