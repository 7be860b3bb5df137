import type { HandshakeDependencies } from '../../composition/handshake-dependencies';
import { parseHandshakeRequest } from '../../domain/sessions/handshake-request';
import { HANDSHAKE_ROUTE } from '../../api-routes';
import { apiRouteHandler } from '../pipeline/api-handler';
import { toHandshakeResponse } from './response';
import { json } from '../../http/responses';

/** POST /v1/partner/handshake: a one-time session token and the module's iframe URL for one user. */
export const handshakeRoute = (getDependencies: () => Promise<HandshakeDependencies>) =>
  apiRouteHandler(HANDSHAKE_ROUTE, getDependencies, async ({ body, caller, deps }) => {
    const identifier = parseHandshakeRequest(body);
    const issued = await deps.handshake.open(caller.partnerId, identifier);
    return json(200, toHandshakeResponse(issued, deps.config.EMBED_BASE_URL));
  });
