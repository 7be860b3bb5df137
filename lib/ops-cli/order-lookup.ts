/**
 * Finds the order an operator means: by its UUID, or by the short id the module shows
 * (its first 8 characters or more). Orders are keyed by the whole id, so a short id reads
 * orders: one organization's (`--partner --org`), one partner's (`--partner`), or the
 * stage's, each at most `MAX_ORDERS_READ` (docs/decisions.md, "Short order ids").
 */
import type { Dependencies } from '../../functions/container';
import { NotFound } from '../../functions/domain/errors';
import type { Order, OrderId } from '../../functions/domain/orders/order';
import type { OrganizationId } from '../../functions/domain/organizations/organization';
import type { PartnerId } from '../../functions/domain/partners/partner';
import { UsageError } from './ops-command';

type Deps = Pick<Dependencies, 'partners' | 'organizations' | 'orders'>;

/** About 20 MB read at most (orders are 1-2 KB): a few seconds and a fraction of a cent on demand. */
const MAX_ORDERS_READ = 20_000;
/** Candidates an ambiguous short id lists. */
const MAX_CANDIDATES = 10;
const UUID_LENGTH = 36;

export interface OrderLookupScope {
  readonly partner?: PartnerId | undefined;
  readonly org?: string | undefined;
}

/** The order `given` names (a UUID or the start of one, checked by `OrderIdOption`), within the scope when given. */
export async function findOrder(
  deps: Deps,
  given: string,
  scope: OrderLookupScope,
  maxOrdersRead = MAX_ORDERS_READ,
): Promise<Order> {
  if (scope.org !== undefined && scope.partner === undefined)
    throw new UsageError('--org needs --partner: organization ids are the partner’s own');
  const organizationIds = await organizationsInScope(deps, scope);
  const within =
    scope.partner === undefined ? '' : ` of partner ${scope.partner}${scope.org ? ` in ${scope.org}` : ''}`;
  const inScope = (order: Order | undefined): order is Order =>
    order !== undefined &&
    (scope.partner === undefined || order.partnerId === scope.partner) &&
    (organizationIds === undefined || organizationIds.includes(order.organizationId));

  if (given.length === UUID_LENGTH) {
    const order = await deps.orders.get(given as OrderId);
    if (!inScope(order)) throw new NotFound(`No order ${given}${within}`);
    return order;
  }

  const found = await deps.orders.idsStartingWith(given, {
    ...(organizationIds === undefined ? {} : { organizationIds }),
    maxItemsRead: maxOrdersRead,
  });
  if (found.ids.length > 1) {
    const candidates = await Promise.all(found.ids.slice(0, MAX_CANDIDATES).map((id) => deps.orders.get(id)));
    throw new UsageError(
      [
        `Order id ${given} is ambiguous: ${found.ids.length}${found.complete ? '' : ' or more'} orders${within} start with it. Give more of the id:`,
        ...candidates.filter((order) => order !== undefined).map(candidateLine),
        ...(found.ids.length > MAX_CANDIDATES ? [`  … and ${found.ids.length - MAX_CANDIDATES} more`] : []),
      ].join('\n'),
    );
  }
  if (!found.complete) {
    const hint =
      scope.partner === undefined
        ? 'give the whole order id, or --partner ID (and --org INTERNAL_ORG_ID) to look in one partner’s orders'
        : 'give the whole order id, or --org INTERNAL_ORG_ID to look in one organization’s orders';
    throw new UsageError(
      `Read ${found.itemsRead} orders${within} without finding every one starting with ${given} (the lookup stops there): ${hint}`,
    );
  }
  const [id] = found.ids;
  const order = id === undefined ? undefined : await deps.orders.get(id);
  if (!inScope(order)) throw new NotFound(`No order${within} starts with ${given}`);
  return order;
}

/** The organizations the scope names: undefined for every order of the stage. */
async function organizationsInScope(deps: Deps, scope: OrderLookupScope): Promise<OrganizationId[] | undefined> {
  if (scope.partner === undefined) return undefined;
  const partner = await deps.partners.getPartner(scope.partner);
  if (!partner) throw new NotFound(`No partner ${scope.partner}`);
  if (scope.org === undefined)
    return (await deps.organizations.listOrganizations(partner.id)).map((organization) => organization.id);
  const aggregate = await deps.organizations.getOrganization(partner.id, scope.org);
  if (!aggregate) throw new NotFound(`Partner ${partner.id} has no organization ${scope.org}`);
  return [aggregate.organization.id];
}

const candidateLine = (order: Order) =>
  `  ${order.id}  ${order.status}  partner ${order.partnerId}  org ${order.internalOrgId}  ${order.createdAt}`;
