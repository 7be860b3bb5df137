import type { OrdersApiDependencies } from '../../composition/orders-api-dependencies';
import { json } from '../../http/responses';
import { apiHandler } from '../pipeline/api-handler';
import { toStatementResponse } from './response';

type GetDependencies = () => Promise<OrdersApiDependencies>;

/** The statement route (docs/billing.md, "Statement"), served by the orders function beside the invoice reads. */
export const statementRoutes = (getDependencies: GetDependencies) => ({
  'organization-statement': apiHandler('organization-statement', getDependencies, async ({ event, caller, deps }) => {
    // Another partner's organization is none of this partner's: the same 404 as the other organization reads.
    const internalOrgId = event.pathParameters?.internalOrgId ?? '';
    return json(200, toStatementResponse(await deps.statements.statement(caller.partnerId, internalOrgId)));
  }),
});
