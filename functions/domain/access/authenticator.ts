import { Forbidden, INVALID_API_KEY_MESSAGE, Unauthorized } from '../errors';
import { hashApiKey, isWellFormedApiKey } from '../partners/api-keys';
import type { ApiKeyPrefix, ApiKeyRecord, Scope } from '../partners/partner';
import type { PartnerRepository } from '../partners/partner-repository';

/** Who made an authenticated API call. */
export interface Caller {
  readonly partnerId: ApiKeyRecord['partnerId'];
  readonly keyId: ApiKeyRecord['keyId'];
  readonly scopes: readonly Scope[];
}

/**
 * Resolves a presented API key to its partner. Every failure is the same 401 with the
 * same message to the caller (which part failed is an operator concern, logged by
 * reason, never with the key).
 */
export class Authenticator {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly environmentPrefix: ApiKeyPrefix,
  ) {}

  async authenticate(presentedKey: string | undefined): Promise<Caller> {
    if (!presentedKey) throw new Unauthorized(INVALID_API_KEY_MESSAGE, 'Missing API key');
    if (!presentedKey.startsWith(this.environmentPrefix)) {
      // The other environment's key, or no key at all: the key is never looked up.
      throw new Unauthorized(INVALID_API_KEY_MESSAGE, 'API key of the other environment');
    }
    if (!isWellFormedApiKey(presentedKey)) throw new Unauthorized(INVALID_API_KEY_MESSAGE, 'Malformed API key');
    // Lookup by hash: no comparison of secret material happens in our code at all.
    const record = await this.partners.findKeyByHash(hashApiKey(presentedKey));
    if (!record) throw new Unauthorized(INVALID_API_KEY_MESSAGE, 'Unknown API key');
    if (record.status !== 'active') throw new Unauthorized(INVALID_API_KEY_MESSAGE, `API key ${record.status}`);
    if (record.prefix !== this.environmentPrefix)
      throw new Unauthorized(INVALID_API_KEY_MESSAGE, 'API key of the other environment');
    return { partnerId: record.partnerId, keyId: record.keyId, scopes: record.scopes };
  }
}

export function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.includes(scope)) throw new Forbidden(`This API key lacks the ${scope} scope`);
}
