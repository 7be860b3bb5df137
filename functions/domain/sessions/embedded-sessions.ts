import { randomUUID } from 'node:crypto';
import { correlate } from '../correlation';
import { METRIC, type Metrics, noMetrics } from '../metrics';
import type { Clock } from '../clock';
import { EmbedAccessDenied } from '../errors';
import type { IdentityDirectory } from '../identity/identity-user';
import type { Organization, Profile, ShippingLocation } from '../organizations/organization';
import type { OrganizationRepository } from '../organizations/organization-repository';
import type { PartnerId } from '../partners/partner';
import type { EmbeddedSessionId, EmbeddedSessionRecord } from './session-records';
import type { SessionRepository } from './session-repository';
import { hashSecret, isWellFormedSecret, mintSecret } from './session-token';
import { predatesDeactivation, profileSignInBlocker, signInBlocker } from './sign-in-eligibility';

/** An embedded session dies after this long without a request (sliding; `EMBED_SESSION_IDLE_S` may shorten it)... */
export const EMBEDDED_SESSION_IDLE_MS = 30 * 60 * 1000;
/** ...and this long after it was opened, whatever the activity. */
export const EMBEDDED_SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/** A session just opened from a handshake token; `cookieValue` is its secret, never stored. */
export interface OpenedEmbeddedSession {
  readonly cookieValue: string;
  readonly session: EmbeddedSessionRecord;
}

/** What the embedded module shows its signed-in user. */
export interface EmbeddedModuleView {
  readonly session: EmbeddedSessionRecord;
  readonly profile: Profile;
  readonly organization: Organization;
  readonly locations: readonly ShippingLocation[];
}

/**
 * The embed host's use cases: exchange a handshake token for a session (once), resume
 * the session on later requests, and end it.
 */
export class EmbeddedSessions {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly identity: IdentityDirectory,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly timeouts: { readonly idleMs: number } = { idleMs: EMBEDDED_SESSION_IDLE_MS },
    private readonly metrics: Metrics = noMetrics,
  ) {}

  /** Redeems the token for `partnerId` and opens a session; a second, late or foreign use is refused. */
  async redeem(partnerId: PartnerId, sessionKey: string): Promise<OpenedEmbeddedSession> {
    if (!isWellFormedSecret(sessionKey)) throw new EmbedAccessDenied('link', 'malformed session_key');
    const now = this.clock.now();
    const token = await this.sessions.redeemToken(hashSecret(sessionKey), partnerId, now);
    if (!token) throw new EmbedAccessDenied('link', 'session_key is used, expired, unknown or for another partner');

    // The profile may have been unlinked in the five minutes since the handshake.
    const profile = await this.organizations.getProfile(token.profileId);
    if (!profile || profile.partnerId !== partnerId) throw new EmbedAccessDenied('link', 'profile no longer exists');
    const blocker = await signInBlocker(this.identity, profile);
    if (blocker) throw new EmbedAccessDenied('link', blocker);
    if (predatesDeactivation(profile, token.createdAt))
      throw new EmbedAccessDenied('link', 'issued before the profile was deactivated');

    const { secret, hash } = mintSecret();
    const session: EmbeddedSessionRecord = {
      id: randomUUID() as EmbeddedSessionId,
      partnerId,
      profileId: profile.id,
      organizationId: profile.organizationId,
      internalOrgId: profile.internalOrgId,
      tokenId: token.id,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      idleExpiresAt: new Date(now.getTime() + this.timeouts.idleMs).toISOString(),
      absoluteExpiresAt: new Date(now.getTime() + EMBEDDED_SESSION_MAX_MS).toISOString(),
      state: 'active',
    };
    await this.sessions.saveEmbeddedSession(session, hash);
    correlate({ organizationId: profile.organizationId });
    this.metrics.count(METRIC.sessionsRedeemed);
    return { cookieValue: secret, session };
  }

  /** The signed-in user's view, counting the request as activity; refused unless the session is live. */
  async resume(partnerId: PartnerId, cookieValue: string | undefined): Promise<EmbeddedModuleView> {
    if (cookieValue === undefined) throw new EmbedAccessDenied('session', 'no session cookie');
    if (!isWellFormedSecret(cookieValue)) throw new EmbedAccessDenied('session', 'malformed session cookie');
    const now = this.clock.now();
    const session = await this.sessions.touchEmbeddedSession(
      hashSecret(cookieValue),
      partnerId,
      now,
      new Date(now.getTime() + this.timeouts.idleMs),
    );
    if (!session) throw new EmbedAccessDenied('session', 'session is ended, expired, unknown or for another partner');

    const [profile, aggregate] = await Promise.all([
      this.organizations.getProfile(session.profileId),
      this.organizations.getOrganization(partnerId, session.internalOrgId),
    ]);
    if (!profile || !aggregate) throw new EmbedAccessDenied('session', 'profile or organization no longer exists');
    // Every page asks this, so from the profile alone (one read fewer); redemption above still reads the user.
    const blocker = profileSignInBlocker(profile);
    if (blocker) throw new EmbedAccessDenied('session', blocker);
    if (predatesDeactivation(profile, session.createdAt))
      throw new EmbedAccessDenied('session', 'opened before the profile was deactivated');
    return {
      session,
      profile,
      organization: aggregate.organization,
      locations: aggregate.locations.filter((l) => l.isActive),
    };
  }

  /** Ends the session behind the cookie, if there is a live one for this partner. */
  async logout(partnerId: PartnerId, cookieValue: string | undefined): Promise<boolean> {
    if (cookieValue === undefined || !isWellFormedSecret(cookieValue)) return false;
    return this.sessions.endEmbeddedSession(hashSecret(cookieValue), partnerId, this.clock.now(), 'logout');
  }
}
