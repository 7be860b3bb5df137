import { dependenciesFromEnvironment } from '../container';
import type { Dependencies } from '../container';
import { apiHandler } from '../http/api-handler';
import { SETUP_ENDPOINT } from '../http/endpoints';
import { json } from '../http/responses';

export const createSetupHandler = (getDependencies: () => Promise<Dependencies>) =>
  apiHandler(SETUP_ENDPOINT, getDependencies, async () =>
    json(501, { error: 'Not Implemented', message: 'Setup is not available yet', code: 'NOT_IMPLEMENTED', details: [] }),
  );

export const handler = createSetupHandler(dependenciesFromEnvironment);
