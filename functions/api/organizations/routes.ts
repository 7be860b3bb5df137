import type { SetupDependencies } from '../../composition/setup-dependencies';
import { OrganizationUpdateRequest } from '../../domain/organizations/change-requests';
import { apiHandler, idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../../http/responses';
import { toOrganizationResponse } from './response';

type GetDependencies = () => Promise<SetupDependencies>;

/** API Gateway sets the matched route's path parameters; an absent one is a route defined wrongly. */
const internalOrgIdOf = (parameters: Record<string, string | undefined> | undefined) => parameters?.internalOrgId ?? '';

/** GET and PATCH /v1/organizations/{internalOrgId}, served by the setup function. */
export const organizationRoutes = (getDependencies: GetDependencies) => ({
  'organization-get': apiHandler('organization-get', getDependencies, async ({ event, caller, deps }) =>
    json(
      200,
      toOrganizationResponse(
        await deps.partnerOrganizations.get(caller.partnerId, internalOrgIdOf(event.pathParameters)),
      ),
    ),
  ),

  'organization-update': idempotentApiHandler(
    'organization-update',
    getDependencies,
    async ({ event, body, caller, deps }) => {
      const update = parseBody(OrganizationUpdateRequest, body);
      const organization = await deps.partnerOrganizations.update(
        caller.partnerId,
        internalOrgIdOf(event.pathParameters),
        update,
      );
      return json(200, toOrganizationResponse(organization));
    },
  ),
});
