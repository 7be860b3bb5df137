import type { SetupDependencies } from '../../composition/setup-dependencies';
import { ProfileUpdateRequest } from '../../domain/organizations/change-requests';
import { apiHandler, idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../../http/responses';
import { toOrganizationUserResponse } from './response';

type GetDependencies = () => Promise<SetupDependencies>;

/** API Gateway sets the matched route's path parameters; an absent one is a route defined wrongly. */
const pathOf = (parameters: Record<string, string | undefined> | undefined) => ({
  internalOrgId: parameters?.internalOrgId ?? '',
  internalUserId: parameters?.internalUserId ?? '',
});

/** GET and PATCH /v1/organizations/{internalOrgId}/users/{internalUserId}, served by the setup function. */
export const organizationUserRoutes = (getDependencies: GetDependencies) => ({
  'organization-user-get': apiHandler('organization-user-get', getDependencies, async ({ event, caller, deps }) => {
    const { internalOrgId, internalUserId } = pathOf(event.pathParameters);
    return json(
      200,
      toOrganizationUserResponse(await deps.partnerUsers.get(caller.partnerId, internalOrgId, internalUserId)),
    );
  }),

  'organization-user-update': idempotentApiHandler(
    'organization-user-update',
    getDependencies,
    async ({ event, body, caller, deps }) => {
      const { internalOrgId, internalUserId } = pathOf(event.pathParameters);
      const update = parseBody(ProfileUpdateRequest, body);
      return json(
        200,
        toOrganizationUserResponse(
          await deps.partnerUsers.update(caller.partnerId, internalOrgId, internalUserId, update),
        ),
      );
    },
  ),
});
