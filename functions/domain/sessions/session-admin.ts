import type { Clock } from '../clock';
import { Forbidden, NotFound } from '../errors';
import type { ProfileId } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { PartnerRepository } from '../partners/partner-repository';
import { type EmbeddedSessionRecord, type SessionTokenState, tokenState } from './session-records';
import type { SessionRepository } from './session-repository';

/** A handshake as an operator sees it: never the token or its hash. */
export interface SessionTokenSummary {
  readonly id: string;
  readonly profileId: string;
  readonly internalOrgId: string;
  readonly state: SessionTokenState;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly usedAt?: string;
}

/** Operator use cases for sessions (operator CLI). */
export class SessionAdmin {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly organizations: OrganizationRepository,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  async listRecent(partnerId: PartnerId, limit: number): Promise<SessionTokenSummary[]> {
    await this.requirePartner(partnerId);
    const now = this.clock.now();
    const tokens = await this.sessions.listTokens(partnerId, limit);
    return tokens.map((token) => ({
      id: token.id,
      profileId: token.profileId,
      internalOrgId: token.internalOrgId,
      state: tokenState(token, now),
      createdAt: token.createdAt,
      expiresAt: token.expiresAt,
      ...(token.usedAt ? { usedAt: token.usedAt } : {}),
    }));
  }

  /** Ends the profile's live embedded sessions; their next request gets the sign-in-again page. */
  async revokeProfileSessions(partnerId: PartnerId, profileId: ProfileId): Promise<EmbeddedSessionRecord[]> {
    await this.requirePartner(partnerId);
    const profile = await this.organizations.getProfile(profileId);
    if (!profile) throw new NotFound(`No profile ${profileId}`);
    // As `profile disable` and the handshake do: another partner's profile is forbidden, not absent.
    if (profile.partnerId !== partnerId) throw new Forbidden(`Profile ${profileId} belongs to another partner`);
    return this.sessions.endEmbeddedSessionsOfProfile(partnerId, profileId, this.clock.now(), 'revoked');
  }

  private async requirePartner(partnerId: PartnerId): Promise<void> {
    if (!(await this.partners.getPartner(partnerId))) throw new NotFound(`No partner ${partnerId}`);
  }
}
