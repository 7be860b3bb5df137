import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { NotFound } from '../errors';
import { mintApiKey } from './api-keys';
import type { ApiKeyId, ApiKeyPrefix, Partner, PartnerId, Scope } from './partner';
import { SCOPES } from './partner';
import type { PartnerRepository } from './partner-repository';

export interface IssuedKeyView {
  readonly apiKey: string;
  readonly keyId: ApiKeyId;
}

/** Operator use cases for partners and keys (there is no API to create them: contract, Authentication 2). */
export class PartnerAdmin {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly keyPrefix: ApiKeyPrefix,
    private readonly clock: Clock,
  ) {}

  async createPartner(input: { name: string; alertEmail?: string }): Promise<IssuedKeyView & { partnerId: PartnerId }> {
    const now = this.clock.now();
    const partner: Partner = {
      id: randomUUID() as PartnerId,
      name: input.name,
      ...(input.alertEmail ? { alertEmail: input.alertEmail } : {}),
      allowedOrigins: [],
      createdAt: now.toISOString(),
    };
    const issued = this.mint(partner.id, SCOPES, now);
    await this.partners.createPartner(partner, issued.record);
    return { partnerId: partner.id, apiKey: issued.apiKey, keyId: issued.record.keyId };
  }

  async issueKey(partnerId: PartnerId, scopes: readonly Scope[] = SCOPES): Promise<IssuedKeyView> {
    await this.requirePartner(partnerId);
    const issued = this.mint(partnerId, scopes, this.clock.now());
    await this.partners.addKey(issued.record);
    return { apiKey: issued.apiKey, keyId: issued.record.keyId };
  }

  /** The new key keeps the old key's scopes; the old one stops working at once. */
  async rotateKey(partnerId: PartnerId, keyId: ApiKeyId): Promise<IssuedKeyView> {
    const old = (await this.partners.listKeys(partnerId)).find((k) => k.keyId === keyId && k.status === 'active');
    if (!old) throw new NotFound(`No active key ${keyId} for partner ${partnerId}`);
    const now = this.clock.now();
    const issued = this.mint(partnerId, old.scopes, now);
    await this.partners.rotateKey(partnerId, keyId, issued.record, now);
    return { apiKey: issued.apiKey, keyId: issued.record.keyId };
  }

  async revokeKey(partnerId: PartnerId, keyId: ApiKeyId): Promise<void> {
    await this.partners.revokeKey(partnerId, keyId, this.clock.now());
  }

  async requirePartner(partnerId: PartnerId): Promise<Partner> {
    const partner = await this.partners.getPartner(partnerId);
    if (!partner) throw new NotFound(`No partner ${partnerId}`);
    return partner;
  }

  private mint(partnerId: PartnerId, scopes: readonly Scope[], now: Date) {
    return mintApiKey({ partnerId, keyId: `key_${randomUUID()}` as ApiKeyId, prefix: this.keyPrefix, scopes, now });
  }
}
