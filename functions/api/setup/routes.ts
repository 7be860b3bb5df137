import type { SetupDependencies } from '../../composition/setup-dependencies';
import type { SetupResult } from '../../domain/organizations/organization-setup';
import { SetupRequest } from '../../domain/organizations/setup-request';
import { idempotentApiHandler } from '../pipeline/api-handler';
import { parseBody } from '../pipeline/parse-body';
import { json } from '../../http/responses';
import { toSetupResponse } from './response';

const answer = (result: SetupResult) => json(200, toSetupResponse(result));

/**
 * POST /v1/organizations/setup: provisions an organization, a profile and shipping
 * locations. With an Idempotency-Key, the 200 to replay is stored in the setup's own
 * transaction, so a retry after a crash at any step replays it.
 */
export const setupRoutes = (getDependencies: () => Promise<SetupDependencies>) => ({
  setup: idempotentApiHandler('setup', getDependencies, async ({ body, caller, deps, idempotency }) => {
    const input = parseBody(SetupRequest, body);
    const completionFor =
      idempotency &&
      ((result: SetupResult) => {
        const { statusCode, body: stored } = answer(result);
        return idempotency.completionWith({ statusCode, body: stored });
      });
    return answer(await deps.organizationSetup.setup(caller.partnerId, input, completionFor));
  }),
});
