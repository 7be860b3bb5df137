/**
 * What submitting a cart (or given items) for approval asks for, and the request it makes
 * of the order's quote.
 */
import type { LimitReason } from '../spending/monthly-spend';
import type { OrderReferences } from '../orders/order-references';
import type { OrderQuote, PlaceOrderInput } from '../orders/order-quote';
import type { OrganizationAggregate, Profile } from '../organizations/organization';
import type { Partner } from '../partners/partner';
import { APPROVAL_TTL_MS, type ApprovalRequest, type ApprovalRequestId, partyOf } from './approval-request';

export interface SubmitApprovalInput {
  readonly partner: Pick<Partner, 'id'>;
  /** The requester: the signed-in user of the module. */
  readonly profile: Profile;
  /** The requester's organization, with its locations. */
  readonly organization: OrganizationAggregate;
  /** One of the organization's active locations; absent means its default location. */
  readonly shippingLocationId?: string;
  readonly references?: OrderReferences;
  /**
   * What to request instead of the cart (the sandbox API, which never touches the user's
   * cart); the cart is submitted and emptied when absent.
   */
  readonly items?: PlaceOrderInput['items'];
  /** The catalog's products for `items`, when the caller read them already. */
  readonly products?: PlaceOrderInput['products'];
  /** Which limit the order passed, when placing it said so (ApprovalRequired); found out here otherwise. */
  readonly limitReason?: LimitReason;
}

/** A new pending request for the quoted order, expiring 7 days from `now`. */
export function submittedRequest(
  input: SubmitApprovalInput,
  quote: OrderQuote,
  limitReason: LimitReason | undefined,
  id: ApprovalRequestId,
  now: Date,
): ApprovalRequest {
  const { partner, profile, organization } = input;
  const requester = partyOf(profile);
  // Only the cart carries the link: a sandbox request of given items resubmits nothing.
  const resubmits = input.items === undefined ? quote.cart.resubmits : undefined;
  return {
    id,
    partnerId: partner.id,
    organizationId: organization.organization.id,
    internalOrgId: organization.organization.internalOrgId,
    profileId: profile.id,
    internalUserId: profile.internalUserId,
    email: profile.email,
    requesterName: requester.name,
    shippingLocationId: quote.shippingAddress.locationId,
    shippingAddress: quote.shippingAddress,
    items: quote.items,
    ...quote.pricing,
    ...(input.references?.poNumber === undefined ? {} : { poNumber: input.references.poNumber }),
    ...(input.references?.notes === undefined ? {} : { notes: input.references.notes }),
    ...(limitReason === undefined ? {} : { limitReason }),
    ...(resubmits === undefined ? {} : { resubmittedFrom: resubmits as ApprovalRequestId }),
    status: 'pending',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS).toISOString(),
    version: 1,
  };
}
