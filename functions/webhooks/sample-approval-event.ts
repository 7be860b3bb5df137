import { randomUUID } from 'node:crypto';
import { approvalDecidedEvent, approvalRequestedEvent } from '../domain/approvals/approval-events';
import { APPROVAL_TTL_MS, type ApprovalRequest, type ApprovalRequestId } from '../domain/approvals/approval-request';
import type { ApprovalEventKind } from '../domain/events/order-event-kinds';
import type { OrderEventMessage } from '../domain/events/order-event-message';
import type { OrganizationId, ProfileId, ShippingLocationId } from '../domain/organizations/organization';
import {
  HOUR_MS,
  SAMPLE_ADDRESS,
  SAMPLE_APPROVER,
  SAMPLE_BUYER,
  SAMPLE_PO_NUMBER,
  type SampleEventInput,
  sampleItems,
  samplePricing,
} from './sample-cart';

/**
 * A realistic approval event, built by the builders real requests use: the sample cart
 * as a request above the buyer's order limit, made now (`approval.requested`), or made
 * two hours ago and approved now, with the order it placed (`approval.decided`). Neither
 * the request nor the order exists: `GET /v1/approval-requests/{id}` answers 404 for it.
 */
export function sampleApprovalEvent(input: SampleEventInput<ApprovalEventKind>): OrderEventMessage {
  const items = sampleItems();
  const createdAt = input.kind === 'approval.requested' ? input.now : new Date(input.now.getTime() - 2 * HOUR_MS);
  const request: ApprovalRequest = {
    id: randomUUID() as ApprovalRequestId,
    partnerId: input.partnerId,
    organizationId: randomUUID() as OrganizationId,
    internalOrgId: input.internalOrgId,
    profileId: randomUUID() as ProfileId,
    internalUserId: SAMPLE_BUYER.internalUserId,
    email: SAMPLE_BUYER.email,
    requesterName: 'Jordan Rivera',
    shippingLocationId: randomUUID() as ShippingLocationId,
    shippingAddress: { locationId: randomUUID() as ShippingLocationId, locationName: 'Main office', ...SAMPLE_ADDRESS },
    items,
    ...samplePricing(items),
    poNumber: SAMPLE_PO_NUMBER,
    limitReason: 'order_limit',
    status: 'pending',
    createdAt: createdAt.toISOString(),
    expiresAt: new Date(createdAt.getTime() + APPROVAL_TTL_MS).toISOString(),
    version: 1,
  };
  if (input.kind === 'approval.requested') return approvalRequestedEvent(request);
  return approvalDecidedEvent({
    ...request,
    status: 'approved',
    decidedAt: input.now.toISOString(),
    decidedBy: { profileId: randomUUID() as ProfileId, ...SAMPLE_APPROVER, name: 'Sam Okafor' },
    comment: 'Approved for the quarter',
    orderId: randomUUID(),
    version: 2,
  });
}
