import type { OrdersApiDependencies } from '../../composition/orders-api-dependencies';
import type { HttpLambda } from '../../http/http-context';
import { json } from '../../http/responses';
import { apiHandler } from '../pipeline/api-handler';
import { parseInvoiceListQuery } from './invoice-list-query';
import { toInvoiceListResponse, toInvoiceResponse } from './invoice-response';

type GetDependencies = () => Promise<OrdersApiDependencies>;

/** GET /v1/invoices and GET /v1/invoices/{invoice_id} (docs/billing.md), served by the orders function. */
export const invoiceRoutes = (
  getDependencies: GetDependencies,
): Record<'invoice-get' | 'invoice-list', HttpLambda> => ({
  'invoice-get': apiHandler('invoice-get', getDependencies, async ({ event, caller, deps }) => {
    // The pipeline has refused an id of any other form (PATH_PARAMETER_RULES): it names no invoice.
    const invoiceId = event.pathParameters?.invoice_id ?? '';
    return json(200, toInvoiceResponse(await deps.invoices.get(invoiceId, caller.partnerId)));
  }),

  'invoice-list': apiHandler('invoice-list', getDependencies, async ({ event, caller, deps }) => {
    const query = parseInvoiceListQuery(event.queryStringParameters);
    const page = await deps.invoices.list(caller.partnerId, {
      internalOrgId: query.internal_org_id,
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.order_id === undefined ? {} : { orderId: query.order_id.toLowerCase() }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
    });
    return json(200, toInvoiceListResponse(page));
  }),
});
