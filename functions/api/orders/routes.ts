import type { OrdersApiDependencies } from '../../composition/orders-api-dependencies';
import { OrganizationNotFound } from '../../domain/errors';
import { type OrderAction, withSandboxDefaults } from '../../domain/orders/transition-input';
import { parseSandboxOrderRequest } from '../../domain/orders/sandbox-order-request';
import type { HttpLambda } from '../../http/http-context';
import { apiHandler } from '../pipeline/api-handler';
import { parseOrderListQuery } from './order-list-query';
import { toCatalogResponse } from './catalog-response';
import { toOrderChangeResponse, toOrderListResponse } from './order-response';
import { toOrderWithInvoiceResponse } from './order-with-invoice';
import { json } from '../../http/responses';
import { toApprovalRequestChangeResponse } from '../approval-requests/response';

type GetDependencies = () => Promise<OrdersApiDependencies>;

/**
 * API Gateway sets the path parameters of the matched route; their absence is a route
 * defined wrongly. Order ids are UUIDs, stored in lower case: any case names the same order.
 */
const orderIdOf = (pathParameters: Record<string, string | undefined> | undefined): string =>
  (pathParameters?.order_id ?? '').toLowerCase();

const transition = (getDependencies: GetDependencies, action: OrderAction): HttpLambda =>
  apiHandler(`sandbox-order-${action}`, getDependencies, async ({ event, body, caller, deps }) => {
    const orderId = orderIdOf(event.pathParameters);
    // The sandbox fills in what a partner's CI leaves out (tracking, signature); operators give it all.
    const input = withSandboxDefaults(action, body, orderId, deps.clock.now());
    const order = await deps.orderService.transition(orderId, action, input, { partnerId: caller.partnerId });
    return json(200, toOrderChangeResponse(order));
  });

/** The partner order API (docs/orders-api.md): the catalog, orders, and on sandbox the routes that drive them. */
export const orderRoutes = (getDependencies: GetDependencies) => ({
  'catalog-products': apiHandler('catalog-products', getDependencies, async ({ deps }) => {
    const products = await deps.catalog.listActive();
    return json(200, toCatalogResponse(products, deps.config.EMBED_BASE_URL));
  }),

  'order-get': apiHandler('order-get', getDependencies, async ({ event, caller, deps }) => {
    const order = await deps.orderService.get(orderIdOf(event.pathParameters), { partnerId: caller.partnerId });
    // The order is the caller's (get refused it otherwise); its invoice sits in the same partition: one more read.
    return json(200, toOrderWithInvoiceResponse(order, await deps.invoices.forOrder(order.id)));
  }),

  'order-list': apiHandler('order-list', getDependencies, async ({ event, caller, deps }) => {
    const query = parseOrderListQuery(event.queryStringParameters);
    const organization = await deps.organizations.getOrganization(caller.partnerId, query.internal_org_id);
    if (!organization) throw new OrganizationNotFound(caller.partnerId, query.internal_org_id);
    const page = await deps.orderService.listForOrganization(
      organization.organization,
      { partnerId: caller.partnerId },
      {
        ...(query.limit === undefined ? {} : { limit: query.limit }),
        ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
        ...(query.po_number === undefined ? {} : { poNumber: query.po_number }),
        ...(query.internal_user_id === undefined ? {} : { internalUserId: query.internal_user_id }),
        ...(query.created_gte === undefined ? {} : { createdGte: query.created_gte }),
        ...(query.created_lt === undefined ? {} : { createdLt: query.created_lt }),
      },
    );
    return json(200, toOrderListResponse(page));
  }),

  'sandbox-order-create': apiHandler('sandbox-order-create', getDependencies, async ({ body, caller, deps }) => {
    const placed = await deps.sandboxOrders.place(caller.partnerId, parseSandboxOrderRequest(body));
    // Above the user's order limit nothing is ordered yet: 202, the request an approver decides.
    return placed.outcome === 'placed'
      ? json(201, toOrderChangeResponse(placed.order))
      : json(202, toApprovalRequestChangeResponse(placed.request));
  }),

  'sandbox-order-confirm': transition(getDependencies, 'confirm'),
  'sandbox-order-ship': transition(getDependencies, 'ship'),
  'sandbox-order-deliver': transition(getDependencies, 'deliver'),
  'sandbox-order-cancel': transition(getDependencies, 'cancel'),
  'sandbox-order-refund': transition(getDependencies, 'refund'),
});
