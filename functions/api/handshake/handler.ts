import { type HandshakeDependencies, handshakeFromEnvironment } from '../../composition/handshake';
import { parseHandshakeRequest } from '../../domain/sessions/handshake-request';
import { apiHandler } from '../pipeline/api-handler';
import { HANDSHAKE_ENDPOINT } from '../pipeline/endpoints';
import { toHandshakeResponse } from './response';
import { json } from '../pipeline/responses';

export const createHandshakeHandler = (getDependencies: () => Promise<HandshakeDependencies>) =>
  apiHandler(HANDSHAKE_ENDPOINT, getDependencies, async ({ body, caller, deps, admitted }) => {
    const identifier = parseHandshakeRequest(body);
    const issued = await deps.handshake.open(caller.partnerId, identifier, admitted);
    return json(200, toHandshakeResponse(issued, deps.config.EMBED_BASE_URL));
  });

export const handler = createHandshakeHandler(handshakeFromEnvironment);
