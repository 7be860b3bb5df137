import type { ApprovalService } from '../approvals/approval-service';
import type { ApprovalRequest } from '../approvals/approval-request';
import type { CatalogRepository } from '../catalog/catalog-repository';
import { ApprovalRequired, ProfileNotLinked, ShippingLocationUnavailable } from '../errors';
import type { OrganizationRepository } from '../organizations/organization-repository';
import { findPartnerProfile } from '../organizations/partner-profile';
import type { PartnerId } from '../partners/partner';
import { profileSignInBlocker } from '../sessions/sign-in-eligibility';
import type { Order } from './order';
import type { OrderService } from './order-service';
import type { SandboxOrder } from './sandbox-order-request';

/** What a sandbox placement did: placed the order, or (above the user's order limit) asked for approval of it. */
export type SandboxPlacement =
  | { readonly outcome: 'placed'; readonly order: Order }
  | { readonly outcome: 'approval-requested'; readonly request: ApprovalRequest };

/**
 * Placing an order through the sandbox API as the named user would in the module, so a
 * partner's CI can produce every webhook kind without a browser. The user's cart is not
 * touched.
 */
export class SandboxOrders {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly catalog: Pick<CatalogRepository, 'get'>,
    private readonly orderService: Pick<OrderService, 'placeOrder'>,
    private readonly approvals: Pick<ApprovalService, 'submit'>,
  ) {}

  /**
   * 1. the profile, by the handshake's rules (ProfileNotFound, Forbidden, AMBIGUOUS_USER);
   * 2. it must be able to sign in, as a user of the module can (ProfileNotLinked), which
   *    the profile alone says, as for the handshake;
   * 3. the shipping location by the partner's id, or the default (ShippingLocationUnavailable);
   * 4. the order is placed from the given lines, with its order.created event; above the
   *    user's order limit it is submitted for approval instead, as the module's checkout
   *    would have the user do (approval.requested), and nothing is ordered yet.
   *
   * The products depend on the request alone, so they are read while the profile and its
   * organization are; a refused profile still wins over a refused product, as before.
   */
  async place(partnerId: PartnerId, request: SandboxOrder): Promise<SandboxPlacement> {
    const products = this.catalog.get(request.items.map((item) => item.productId));
    // Awaited below; until then a failed read must not count as unhandled when the profile fails first.
    products.catch(() => undefined);
    const profile = await findPartnerProfile(this.organizations, partnerId, request.user);
    const blocker = profileSignInBlocker(profile);
    if (blocker) throw new ProfileNotLinked(blocker);

    const organization = await this.organizations.getOrganization(partnerId, profile.internalOrgId);
    if (!organization)
      throw new RangeError(`Profile ${profile.id} names organization ${profile.internalOrgId}, which is not stored`);
    let shippingLocationId: string | undefined;
    if (request.internalShippingLocationId !== undefined) {
      const location = organization.locations.find(
        (candidate) => candidate.internalShippingLocationId === request.internalShippingLocationId,
      );
      if (!location) throw new ShippingLocationUnavailable(request.internalShippingLocationId);
      shippingLocationId = location.id;
    }
    const input = {
      partner: { id: partnerId },
      profile,
      organization,
      items: request.items,
      products: await products,
      references: request.references,
      ...(shippingLocationId === undefined ? {} : { shippingLocationId }),
    };
    try {
      return { outcome: 'placed', order: await this.orderService.placeOrder(input) };
    } catch (error) {
      if (!(error instanceof ApprovalRequired)) throw error;
      return {
        outcome: 'approval-requested',
        request: await this.approvals.submit({ ...input, limitReason: error.reason }),
      };
    }
  }
}
