import type { ProfileId } from '../organizations/organization';
import type { PartnerId } from '../partners/partner';
import type { EmbeddedSessionEndReason, EmbeddedSessionRecord, SessionTokenRecord } from './session-records';

/** Storage port for handshake tokens and embedded-app sessions, both addressed by the SHA-256 of their secret. */
export interface SessionRepository {
  saveToken(token: SessionTokenRecord, tokenHash: string): Promise<void>;

  /**
   * Moves the token from issued to used in ONE atomic conditional write: it must be
   * issued, unexpired at `now` and belong to `partnerId`. Returns the used token, or
   * undefined when any condition fails, so of any number of concurrent redemptions
   * exactly one gets the token.
   */
  redeemToken(tokenHash: string, partnerId: PartnerId, now: Date): Promise<SessionTokenRecord | undefined>;

  /** Most recent first. */
  listTokens(partnerId: PartnerId, limit: number): Promise<SessionTokenRecord[]>;

  saveEmbeddedSession(session: EmbeddedSessionRecord, sessionHash: string): Promise<void>;

  /**
   * Records activity on a live session in one conditional write: it must be active,
   * belong to `partnerId` and be within both its idle and absolute expiry at `now`.
   * Returns the updated session, or undefined when it is not usable.
   */
  touchEmbeddedSession(
    sessionHash: string,
    partnerId: PartnerId,
    now: Date,
    idleExpiresAt: Date,
  ): Promise<EmbeddedSessionRecord | undefined>;

  /** Ends the session if it is the partner's and still active; false when there was nothing to end. */
  endEmbeddedSession(
    sessionHash: string,
    partnerId: PartnerId,
    at: Date,
    reason: EmbeddedSessionEndReason,
  ): Promise<boolean>;

  /** Ends every active session of the profile; returns the sessions it ended. */
  endEmbeddedSessionsOfProfile(
    partnerId: PartnerId,
    profileId: ProfileId,
    at: Date,
    reason: EmbeddedSessionEndReason,
  ): Promise<EmbeddedSessionRecord[]>;
}
