/**
 * The order an approval places: who may still receive it, and the order itself.
 */
import { ApprovalCannotBePlaced } from '../errors';
import type { Order, OrderId } from '../orders/order';
import { newOrder } from '../orders/order';
import type { OrganizationAggregate, ShippingLocation } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { SpendMonth } from '../spending/monthly-spend';
import { profileSignInBlocker } from '../sessions/sign-in-eligibility';
import type { ApprovalParty, ApprovalRequest } from './approval-request';

/** The request's location and organization, when its requester can still order and the location is active (ApprovalCannotBePlaced otherwise). */
export async function placeableLocation(
  organizations: Pick<OrganizationRepository, 'getOrganization'>,
  request: ApprovalRequest,
): Promise<{ readonly location: ShippingLocation; readonly organization: OrganizationAggregate }> {
  const organization = await organizations.getOrganization(request.partnerId, request.internalOrgId);
  const requester = organization?.profiles.find((profile) => profile.id === request.profileId);
  if (!organization || !requester || profileSignInBlocker(requester))
    throw new ApprovalCannotBePlaced(request.id, 'requester-inactive');
  const location = organization.locations.find((candidate) => candidate.id === request.shippingLocationId);
  if (!location?.isActive) throw new ApprovalCannotBePlaced(request.id, 'location-unavailable');
  return { location, organization };
}

/** The submitted snapshot (items, prices, address, references) as an order placed by the requester with `approvedBy` (and the approver's comment), and the request approved with its id. */
export function approvedOrder(
  request: ApprovalRequest,
  decision: { readonly by: ApprovalParty; readonly comment?: string },
  orderId: OrderId,
  now: Date,
  spendMonth: SpendMonth,
): { order: Order; approved: ApprovalRequest } {
  const order = newOrder({
    id: orderId,
    partnerId: request.partnerId,
    organization: { id: request.organizationId, internalOrgId: request.internalOrgId },
    profile: { id: request.profileId, internalUserId: request.internalUserId, email: request.email },
    references: {
      ...(request.poNumber === undefined ? {} : { poNumber: request.poNumber }),
      ...(request.notes === undefined ? {} : { notes: request.notes }),
    },
    items: request.items,
    shippingAddress: request.shippingAddress,
    pricing: request,
    at: now.toISOString(),
    spendMonth,
    approval: {
      requestId: request.id,
      approvedBy: decision.by,
      ...(decision.comment === undefined ? {} : { comment: decision.comment }),
    },
  });
  const approved: ApprovalRequest = {
    ...request,
    status: 'approved',
    decidedAt: now.toISOString(),
    decidedBy: decision.by,
    ...(decision.comment === undefined ? {} : { comment: decision.comment }),
    orderId: order.id,
    version: request.version + 1,
  };
  return { order, approved };
}
