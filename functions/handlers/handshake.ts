import { type HandshakeDependencies, handshakeFromEnvironment } from '../composition/handshake';
import { parseHandshakeRequest } from '../domain/sessions/handshake-request';
import { apiHandler } from '../http/api-handler';
import { HANDSHAKE_ENDPOINT } from '../http/endpoints';
import { toHandshakeResponse } from '../http/handshake-response';
import { json } from '../http/responses';

export const createHandshakeHandler = (getDependencies: () => Promise<HandshakeDependencies>) =>
  apiHandler(HANDSHAKE_ENDPOINT, getDependencies, async ({ body, caller, deps, admitted }) => {
    const identifier = parseHandshakeRequest(body);
    const issued = await deps.handshake.open(caller.partnerId, identifier, admitted);
    return json(200, toHandshakeResponse(issued, deps.config.EMBED_BASE_URL));
  });

export const handler = createHandshakeHandler(handshakeFromEnvironment);
