import { type OrdersApiDependencies, ordersApiFromEnvironment } from '../../composition/orders-api';
import { OrganizationNotFound } from '../../domain/errors';
import { ORDER_ACTIONS, type OrderAction } from '../../domain/orders/transition-input';
import { parseSandboxOrderRequest } from '../../domain/orders/sandbox-order-request';
import type { HttpLambda } from '../pipeline/api-context';
import { apiHandler } from '../pipeline/api-handler';
import {
  CATALOG_PRODUCTS_ENDPOINT,
  ORDER_GET_ENDPOINT,
  ORDER_LIST_ENDPOINT,
  SANDBOX_ORDER_CREATE_ENDPOINT,
  SANDBOX_ORDER_TRANSITION_ENDPOINT,
} from '../pipeline/endpoints';
import { parseOrderListQuery } from './order-list-query';
import { toCatalogResponse } from './catalog-response';
import { toOrderChangeResponse, toOrderListResponse, toOrderResponse } from './order-response';
import { json } from '../pipeline/responses';
import { routedHandler, routeNotFound } from '../pipeline/routed-handler';

type GetDependencies = () => Promise<OrdersApiDependencies>;

/**
 * API Gateway sets the path parameters of the matched route; their absence is a route
 * defined wrongly. Order ids are UUIDs, stored in lower case: any case names the same order.
 */
const orderIdOf = (pathParameters: Record<string, string | undefined> | undefined): string => (pathParameters?.order_id ?? '').toLowerCase();

/**
 * Defence in depth behind the stage's route list (production's API has no sandbox
 * routes): the function itself refuses them on any stage but sandbox.
 */
const sandboxOnly =
  (getDependencies: GetDependencies, handler: HttpLambda): HttpLambda =>
  async (event, context) =>
    (await getDependencies()).config.STAGE === 'sandbox' ? handler(event, context) : routeNotFound();

const transitionRoute = (getDependencies: GetDependencies, action: OrderAction): [string, HttpLambda] => [
  `POST /v1/sandbox/orders/{order_id}/${action}`,
  sandboxOnly(
    getDependencies,
    apiHandler(SANDBOX_ORDER_TRANSITION_ENDPOINT, getDependencies, async ({ event, body, caller, deps, admitted }) => {
      const order = await deps.orderService.transition(orderIdOf(event.pathParameters), action, body, { partnerId: caller.partnerId }, admitted);
      return json(200, toOrderChangeResponse(order));
    }),
  ),
];

/** The partner order API (docs/orders-api.md): the catalog, orders, and on sandbox the routes that drive an order. */
export const createOrdersApiHandler = (getDependencies: GetDependencies) =>
  routedHandler({
    'GET /v1/catalog/products': apiHandler(CATALOG_PRODUCTS_ENDPOINT, getDependencies, async ({ deps }) => {
      const products = await deps.catalog.listActive();
      return json(200, toCatalogResponse(products, deps.config.EMBED_BASE_URL));
    }),

    'GET /v1/orders/{order_id}': apiHandler(ORDER_GET_ENDPOINT, getDependencies, async ({ event, caller, deps }) => {
      const order = await deps.orderService.get(orderIdOf(event.pathParameters), { partnerId: caller.partnerId });
      return json(200, toOrderResponse(order));
    }),

    'GET /v1/orders': apiHandler(ORDER_LIST_ENDPOINT, getDependencies, async ({ event, caller, deps }) => {
      const query = parseOrderListQuery(event.queryStringParameters);
      const organization = await deps.organizations.getOrganization(caller.partnerId, query.internal_org_id);
      if (!organization) throw new OrganizationNotFound(caller.partnerId, query.internal_org_id);
      const page = await deps.orderService.listForOrganization(
        organization.organization,
        { partnerId: caller.partnerId },
        {
          ...(query.limit === undefined ? {} : { limit: query.limit }),
          ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
        },
      );
      return json(200, toOrderListResponse(page));
    }),

    'POST /v1/sandbox/orders': sandboxOnly(
      getDependencies,
      apiHandler(SANDBOX_ORDER_CREATE_ENDPOINT, getDependencies, async ({ body, caller, deps, admitted }) => {
        const order = await deps.sandboxOrders.place(caller.partnerId, parseSandboxOrderRequest(body), admitted);
        return json(201, toOrderChangeResponse(order));
      }),
    ),

    ...Object.fromEntries(ORDER_ACTIONS.map((action) => transitionRoute(getDependencies, action))),
  });

export const handler = createOrdersApiHandler(ordersApiFromEnvironment);
