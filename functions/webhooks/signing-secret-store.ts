import type { PartnerId } from '../domain/partners/partner';

/** A secret that keeps signing, beside the current one, until `expiresAt` (a rotation's overlap). */
interface RetiringSecret {
  readonly secret: string;
  readonly expiresAt: string;
}

/** A partner's signing secrets: the current one, and those a rotation left signing for a while. */
export interface SigningSecrets {
  readonly current: string;
  /** Oldest first. */
  readonly retiring: readonly RetiringSecret[];
}

/** Where partners' webhook signing secrets live (Secrets Manager); never in a table or a log. */
export interface SigningSecretStore {
  /**
   * The partner's secrets, or undefined when it has none. May be cached briefly, but never
   * across a rotation: given `rotatedAt` (the endpoint's `secretRotatedAt`, read with the
   * endpoint), a copy read for an earlier rotation is not used.
   */
  get(partnerId: PartnerId, rotatedAt?: string): Promise<SigningSecrets | undefined>;
  /** Creates or replaces the partner's secrets. */
  put(partnerId: PartnerId, secrets: SigningSecrets): Promise<void>;
  /** Deletes the partner's secrets for good (no recovery window). */
  remove(partnerId: PartnerId): Promise<void>;
}

/** The secrets that sign at `now`, oldest first: the retiring ones still inside their overlap, then the current one. */
export const liveSecrets = (secrets: SigningSecrets, now: Date): string[] => [
  ...secrets.retiring.filter((retiring) => new Date(retiring.expiresAt) > now).map((retiring) => retiring.secret),
  secrets.current,
];

/** The secrets without those whose overlap has ended. */
export const withoutExpiredSecrets = (secrets: SigningSecrets, now: Date): SigningSecrets => ({
  current: secrets.current,
  retiring: secrets.retiring.filter((retiring) => new Date(retiring.expiresAt) > now),
});
