import { type HandshakeDependencies, handshakeFromEnvironment } from '../../composition/handshake';
import { parseHandshakeRequest } from '../../domain/sessions/handshake-request';
import { apiHandler } from '../pipeline/api-handler';
import { toHandshakeResponse } from './response';
import { json } from '../../http/responses';

export const createHandshakeHandler = (getDependencies: () => Promise<HandshakeDependencies>) =>
  apiHandler('POST /v1/partner/handshake', getDependencies, async ({ body, caller, deps }) => {
    const identifier = parseHandshakeRequest(body);
    const issued = await deps.handshake.open(caller.partnerId, identifier);
    return json(200, toHandshakeResponse(issued, deps.config.EMBED_BASE_URL));
  });

export const handler = createHandshakeHandler(handshakeFromEnvironment);
