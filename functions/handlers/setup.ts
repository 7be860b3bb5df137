import { type SetupDependencies, setupFromEnvironment } from '../composition/setup';
import { SetupRequest } from '../domain/organizations/setup-request';
import { idempotentApiHandler } from '../http/api-handler';
import { SETUP_ENDPOINT } from '../http/endpoints';
import { parseBody } from '../http/parse-body';
import { json } from '../http/responses';
import { toSetupResponse } from '../http/setup-response';

/** POST /v1/organizations/setup: provisions an organization, a profile and shipping locations. */
export const createSetupHandler = (getDependencies: () => Promise<SetupDependencies>) =>
  idempotentApiHandler(SETUP_ENDPOINT, getDependencies, async ({ body, caller, deps, admitted }) => {
    const input = parseBody(SetupRequest, body);
    const result = await deps.organizationSetup.setup(caller.partnerId, input, admitted);
    return json(200, toSetupResponse(result));
  });

export const handler = createSetupHandler(setupFromEnvironment);
