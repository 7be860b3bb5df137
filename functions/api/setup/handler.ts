import { type SetupDependencies, setupFromEnvironment } from '../../composition/setup';
import type { SetupResult } from '../../domain/organizations/organization-setup';
import { SetupRequest } from '../../domain/organizations/setup-request';
import { organizationUserRoutes } from '../organization-users/handler';
import { idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../../http/responses';
import { routedHandler } from '../pipeline/routed-handler';
import { shippingLocationRoutes } from '../shipping-locations/handler';
import { toSetupResponse } from './response';

const answer = (result: SetupResult) => json(200, toSetupResponse(result));

/**
 * POST /v1/organizations/setup: provisions an organization, a profile and shipping
 * locations. With an Idempotency-Key, the 200 to replay is stored in the setup's own
 * transaction, so a retry after a crash at any step replays it.
 */
const setupRoute = (getDependencies: () => Promise<SetupDependencies>) =>
  idempotentApiHandler('POST /v1/organizations/setup', getDependencies, async ({ body, caller, deps, idempotency }) => {
    const input = parseBody(SetupRequest, body);
    const completionFor =
      idempotency &&
      ((result: SetupResult) => {
        const { statusCode, body: stored } = answer(result);
        return idempotency.completionWith({ statusCode, body: stored });
      });
    return answer(await deps.organizationSetup.setup(caller.partnerId, input, completionFor));
  });

/**
 * The setup function serves setup and the partner's changes after it (its users and
 * shipping locations, docs/setup.md): one function with setup's grants, no cold start of its own.
 */
export const createSetupHandler = (getDependencies: () => Promise<SetupDependencies>) =>
  routedHandler('setup', {
    'POST /v1/organizations/setup': setupRoute(getDependencies),
    ...organizationUserRoutes(getDependencies),
    ...shippingLocationRoutes(getDependencies),
  });

export const handler = createSetupHandler(setupFromEnvironment);
