import type { ApiKeyId, ApiKeyRecord, Partner, PartnerId } from './partner';

/** Storage port for partners and their API keys. */
export interface PartnerRepository {
  createPartner(partner: Partner, firstKey: ApiKeyRecord): Promise<void>;
  getPartner(partnerId: PartnerId): Promise<Partner | undefined>;
  listPartners(): Promise<Partner[]>;
  setAllowedOrigins(partnerId: PartnerId, origins: readonly string[]): Promise<void>;
  addKey(key: ApiKeyRecord): Promise<void>;
  listKeys(partnerId: PartnerId): Promise<ApiKeyRecord[]>;
  /** Looks a presented key up by its hash (consistent read: a revocation must bite at once). */
  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Revokes `oldKey` and stores `newKey` in one transaction; throws NotFound if the old key is not active. */
  rotateKey(partnerId: PartnerId, oldKeyId: ApiKeyId, newKey: ApiKeyRecord, revokedAt: Date): Promise<void>;
  /** Throws NotFound when the partner has no such key. */
  revokeKey(partnerId: PartnerId, keyId: ApiKeyId, revokedAt: Date): Promise<void>;
}
