import { type HandshakeDependencies, handshakeFromEnvironment } from '../composition/handshake';
import type { IssuedSession } from '../domain/sessions/handshake';
import { parseHandshakeRequest } from '../domain/sessions/handshake-request';
import { iframeEmbedUrl } from '../domain/sessions/iframe-embed-url';
import { apiHandler } from '../http/api-handler';
import { HANDSHAKE_ENDPOINT } from '../http/endpoints';
import { json } from '../http/responses';

/** The contract's success body, field for field. */
const toHandshakeResponse = ({ sessionKey, token, profile }: IssuedSession, embedBaseUrl: string) => ({
  success: true,
  session_key: sessionKey,
  iframe_embed_url: iframeEmbedUrl(embedBaseUrl, token.partnerId, sessionKey),
  expires_at: token.expiresAt,
  profile: { id: profile.id, first_name: profile.firstName, last_name: profile.lastName, email: profile.email },
});

export const createHandshakeHandler = (getDependencies: () => Promise<HandshakeDependencies>) =>
  apiHandler(HANDSHAKE_ENDPOINT, getDependencies, async ({ body, caller, deps, admitted }) => {
    const identifier = parseHandshakeRequest(body);
    const issued = await deps.handshake.open(caller.partnerId, identifier, admitted);
    return json(200, toHandshakeResponse(issued, deps.config.EMBED_BASE_URL));
  });

export const handler = createHandshakeHandler(handshakeFromEnvironment);
