import type { OrdersApiDependencies } from '../../composition/orders-api-dependencies';
import { json } from '../../http/responses';
import { apiHandler } from '../pipeline/api-handler';
import { toSpendReportResponse } from './response';

type GetDependencies = () => Promise<OrdersApiDependencies>;

/**
 * The spend report route (docs/orders-api.md, "Spend report"), served by the orders
 * function: the totals the module's Spending page shows, for the partner's own reporting.
 * Unknown query parameters are ignored, as on the other reads.
 */
export const spendRoutes = (getDependencies: GetDependencies) => ({
  'organization-spend': apiHandler('organization-spend', getDependencies, async ({ event, caller, deps }) => {
    const internalOrgId = event.pathParameters?.internalOrgId ?? '';
    // Another partner's organization is none of this partner's: the same 404 as the other organization reads.
    const organization = await deps.spendReports.organization(caller.partnerId, internalOrgId);
    const month = deps.spendReports.monthOf(organization, event.queryStringParameters?.month);
    const report = await deps.spendReports.report(organization, month);
    return json(200, toSpendReportResponse(internalOrgId, report));
  }),
});
