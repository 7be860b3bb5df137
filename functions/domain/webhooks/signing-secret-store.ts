import type { PartnerId } from '../partners/partner';

/** Where partners' webhook signing secrets live (Secrets Manager); never in a table or a log. */
export interface SigningSecretStore {
  /** The current secret, or undefined when the partner has none. May be cached briefly. */
  get(partnerId: PartnerId): Promise<string | undefined>;
  /** Creates or replaces the partner's secret. */
  put(partnerId: PartnerId, secret: string): Promise<void>;
}
