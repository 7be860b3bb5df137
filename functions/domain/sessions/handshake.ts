import { randomUUID } from 'node:crypto';
import { correlate } from '../correlation';
import { METRIC, type Metrics, noMetrics } from '../metrics';
import type { Clock } from '../clock';
import { ProfileNotLinked } from '../errors';
import type { Profile } from '../organizations/organization';
import { findPartnerProfile } from '../organizations/partner-profile';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { ProfileIdentifier } from './handshake-request';
import type { SessionTokenId, SessionTokenRecord } from './session-records';
import type { SessionRepository } from './session-repository';
import { mintSecret, SESSION_TOKEN_LIFETIME_MS } from './session-token';
import { profileSignInBlocker } from './sign-in-eligibility';

/** A freshly issued handshake token: the only moment the plaintext exists. */
export interface IssuedSession {
  readonly sessionKey: string;
  readonly token: SessionTokenRecord;
  readonly profile: Profile;
}

/**
 * POST /v1/partner/handshake: finds the partner's profile, checks it can sign in, and
 * issues a fresh single-use token. Every call mints a new one; nothing is reused or cached.
 */
export class Handshake {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly metrics: Metrics = noMetrics,
  ) {}

  async open(partnerId: PartnerId, identifier: ProfileIdentifier): Promise<IssuedSession> {
    const profile = await findPartnerProfile(this.organizations, partnerId, identifier);
    const blocker = profileSignInBlocker(profile);
    if (blocker) throw new ProfileNotLinked(blocker);

    const now = this.clock.now();
    const { secret, hash } = mintSecret();
    const token: SessionTokenRecord = {
      id: randomUUID() as SessionTokenId,
      partnerId,
      profileId: profile.id,
      internalOrgId: profile.internalOrgId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TOKEN_LIFETIME_MS).toISOString(),
      state: 'issued',
    };
    await this.sessions.saveToken(token, hash);
    correlate({ organizationId: profile.organizationId });
    this.metrics.count(METRIC.handshakes);
    return { sessionKey: secret, token, profile };
  }
}
