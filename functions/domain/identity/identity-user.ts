import type { PartnerId } from '../partners/partner';
import type { ProfileId, UserId } from '../organizations/organization';

/** A user of the service's own identity directory (docs/architecture.md, "Identity provider"). */
export interface IdentityUser {
  readonly id: UserId;
  readonly partnerId: PartnerId;
  readonly profileId: ProfileId;
  readonly email: string;
  readonly status: 'active' | 'disabled';
  readonly createdAt: string;
}

/** Read side of the identity provider, as the handshake and embed host need it. */
export interface IdentityDirectory {
  getUser(userId: UserId): Promise<IdentityUser | undefined>;
}
