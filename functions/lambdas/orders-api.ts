import { type OrdersApiDependencies, ordersApiFromEnvironment } from '../composition/orders-api';
import { approvalRequestRoutes } from '../api/approval-requests/routes';
import { invoiceRoutes } from '../api/invoices/routes';
import { orderRoutes } from '../api/orders/routes';
import { routedHandler } from '../api/pipeline/routed-handler';

/** The orders API Lambda (docs/orders-api.md): the catalog, orders, approval requests, and on sandbox the routes that drive them. */
export const createOrdersApiHandler = (getDependencies: () => Promise<OrdersApiDependencies>) =>
  routedHandler('ordersApi', {
    ...orderRoutes(getDependencies),
    ...invoiceRoutes(getDependencies),
    ...approvalRequestRoutes(getDependencies),
  });

export const handler = createOrdersApiHandler(ordersApiFromEnvironment);
