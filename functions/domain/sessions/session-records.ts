import type { OrganizationId, ProfileId } from '../organizations/organization';
import type { PartnerId } from '../partners/partner';

/** Public (non-secret) identifier of a handshake token record, for operators. */
export type SessionTokenId = string & { readonly __brand: 'SessionTokenId' };
/** Public (non-secret) identifier of an embedded-app session, for operators. */
export type EmbeddedSessionId = string & { readonly __brand: 'EmbeddedSessionId' };

/** What is stored for a handshake token: never the token, only its hash (kept by the repository). */
export interface SessionTokenRecord {
  readonly id: SessionTokenId;
  readonly partnerId: PartnerId;
  readonly profileId: ProfileId;
  readonly internalOrgId: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** Stored states; `expired` is derived from `expiresAt` when read (see `tokenState`). */
  readonly state: 'issued' | 'used';
  readonly usedAt?: string;
}

export type SessionTokenState = 'issued' | 'used' | 'expired';

export const tokenState = (token: SessionTokenRecord, now: Date): SessionTokenState =>
  token.state === 'used' ? 'used' : Date.parse(token.expiresAt) > now.getTime() ? 'issued' : 'expired';

export type EmbeddedSessionEndReason = 'logout' | 'revoked';

/** The embedded module's session behind the `__Host-embed_session` cookie (only the cookie value's hash is stored). */
export interface EmbeddedSessionRecord {
  readonly id: EmbeddedSessionId;
  readonly partnerId: PartnerId;
  readonly profileId: ProfileId;
  readonly organizationId: OrganizationId;
  readonly internalOrgId: string;
  /** The handshake token it was opened with. */
  readonly tokenId: SessionTokenId;
  readonly createdAt: string;
  readonly lastSeenAt: string;
  /** Slides forward on every request; the session dies when it passes. */
  readonly idleExpiresAt: string;
  /** Never moves: the session dies then whatever the activity. */
  readonly absoluteExpiresAt: string;
  readonly state: 'active' | 'ended';
  readonly endedAt?: string;
  readonly endReason?: EmbeddedSessionEndReason;
}
