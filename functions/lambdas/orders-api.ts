import { type OrdersApiDependencies, ordersApiFromEnvironment } from '../composition/orders-api-dependencies';
import { approvalRequestRoutes } from '../api/approval-requests/routes';
import { invoiceRoutes } from '../api/invoices/routes';
import { orderRoutes } from '../api/orders/routes';
import { routedHandler } from '../api/pipeline/routed-handler';
import { sandboxInvoiceRoutes } from '../api/sandbox-invoices/routes';
import { spendRoutes } from '../api/spending/routes';
import { statementRoutes } from '../api/statements/routes';
import { stripeEventRoutes } from '../api/stripe-events/routes';

/**
 * The orders API Lambda (docs/orders-api.md): the catalog, orders, approval requests, the spend report, and on
 * sandbox the routes that drive them; Stripe's invoice events (docs/billing.md), which change the invoices beside
 * the orders.
 */
export const createOrdersApiHandler = (getDependencies: () => Promise<OrdersApiDependencies>) =>
  routedHandler('ordersApi', {
    ...orderRoutes(getDependencies),
    ...invoiceRoutes(getDependencies),
    ...approvalRequestRoutes(getDependencies),
    ...spendRoutes(getDependencies),
    ...statementRoutes(getDependencies),
    ...sandboxInvoiceRoutes(getDependencies),
    ...stripeEventRoutes(getDependencies),
  });

export const handler = createOrdersApiHandler(ordersApiFromEnvironment);
