/**
 * The 200 body of POST /v1/partner/handshake, field for field as the contract's table
 * has it. The schema is strict so the document (docs/openapi.json) and the contract
 * tests hold real responses to it; the type derives from it.
 */
// zod/mini: the handshake Lambda's bundle budget is 150 KB, and the classic API alone is ~440 KB bundled.
import * as z from 'zod/mini';
import type { IssuedSession } from '../../domain/sessions/handshake';
import { iframeEmbedUrl } from '../../domain/sessions/iframe-embed-url';

export const HandshakeResponseBody = z.strictObject({
  success: z.literal(true),
  /** 64 lowercase hex characters (32 random bytes); single-use, 5 minutes. */
  session_key: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  iframe_embed_url: z.url(),
  expires_at: z.iso.datetime(),
  profile: z.strictObject({
    id: z.uuid(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
  }),
});
export type HandshakeResponseBody = z.infer<typeof HandshakeResponseBody>;

export const toHandshakeResponse = (
  { sessionKey, token, profile }: IssuedSession,
  embedBaseUrl: string,
): HandshakeResponseBody => ({
  success: true,
  session_key: sessionKey,
  iframe_embed_url: iframeEmbedUrl(embedBaseUrl, token.partnerId, sessionKey),
  expires_at: token.expiresAt,
  profile: { id: profile.id, first_name: profile.firstName, last_name: profile.lastName, email: profile.email },
});
