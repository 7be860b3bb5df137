import { Forbidden, OrderNotFound } from '../errors';
import type { OrganizationId } from '../organizations/organization';
import type { PartnerId } from '../partners/partner';
import type { Order } from './order';

/**
 * Whose orders a caller may see and change: a partner's (partner API, sandbox), or one
 * organization's within it (the embedded module, for its signed-in user). The operator
 * CLI acts for the order's own partner.
 */
export interface OrderScope {
  readonly partnerId: PartnerId;
  readonly organizationId?: OrganizationId;
}

/**
 * Another partner's order is Forbidden, as another partner's profile is (docs/architecture.md,
 * "Other partner's resource"). Another organization's order under the same partner is
 * OrderNotFound: a user of one business is not told that a sibling business's order
 * exists.
 */
export function assertOrderInScope(order: Order, scope: OrderScope): void {
  if (order.partnerId !== scope.partnerId) throw new Forbidden(`Order ${order.id} belongs to another partner`);
  if (scope.organizationId !== undefined && order.organizationId !== scope.organizationId)
    throw new OrderNotFound(order.id);
}
