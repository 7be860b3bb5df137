import type { HandshakeRequest, HandshakeResponse } from '../api-types.js';
import type { HttpTransport } from '../http-transport.js';

/** The user to open a session for: your own user id (recommended) or the profile id setup returned. */
export type HandshakeInput =
  { internalUserId: string; internalOrgId?: string } | { profileId: string; internalOrgId?: string };

export const toUserReference = (input: HandshakeInput): HandshakeRequest => ({
  ...('profileId' in input ? { profile_id: input.profileId } : { internal_user_id: input.internalUserId }),
  ...(input.internalOrgId === undefined ? {} : { internal_org_id: input.internalOrgId }),
});

/** `POST /v1/partner/handshake`. */
export class Sessions {
  constructor(private readonly transport: HttpTransport) {}

  /** A fresh single-use token and the `iframe_embed_url` that signs the user in; call it every time the user opens the module. */
  handshake(input: HandshakeInput): Promise<HandshakeResponse> {
    return this.transport.request<HandshakeResponse>({
      method: 'POST',
      path: '/v1/partner/handshake',
      credential: 'x-api-key',
      body: toUserReference(input),
      // Each attempt mints a token; an unused one expires in 5 minutes, so a repeat is harmless.
      retryable: 'on-failure',
    });
  }
}
