import { dependenciesFromEnvironment } from '../container';
import type { Dependencies } from '../container';
import { apiHandler } from '../http/api-handler';
import { HANDSHAKE_ENDPOINT } from '../http/endpoints';
import { json } from '../http/responses';

export const createHandshakeHandler = (getDependencies: () => Promise<Dependencies>) =>
  apiHandler(HANDSHAKE_ENDPOINT, getDependencies, async () =>
    json(501, { error: 'Not Implemented', details: 'The handshake is not available yet' }),
  );

export const handler = createHandshakeHandler(dependenciesFromEnvironment);
