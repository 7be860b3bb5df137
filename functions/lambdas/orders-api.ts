import { type OrdersApiDependencies, ordersApiFromEnvironment } from '../composition/orders-api';
import { approvalRequestRoutes } from '../api/approval-requests/routes';
import { orderRoutes } from '../api/orders/routes';
import { routedHandler } from '../api/pipeline/routed-handler';
import { spendRoutes } from '../api/spending/routes';

/** The orders API Lambda (docs/orders-api.md): the catalog, orders, approval requests, the spend report, and on sandbox the routes that drive them. */
export const createOrdersApiHandler = (getDependencies: () => Promise<OrdersApiDependencies>) =>
  routedHandler('ordersApi', {
    ...orderRoutes(getDependencies),
    ...approvalRequestRoutes(getDependencies),
    ...spendRoutes(getDependencies),
  });

export const handler = createOrdersApiHandler(ordersApiFromEnvironment);
