import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyId, ApiKeyPrefix, ApiKeyRecord, IssuedApiKey, PartnerId, Scope } from './partner';

/** Keys are 32 random bytes after the environment prefix (docs/architecture.md, "API keys"). */
const KEY_PATTERN = /^sk_(live|test)_[0-9a-f]{64}$/;

export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');

export const isWellFormedApiKey = (apiKey: string): boolean => KEY_PATTERN.test(apiKey);

export function mintApiKey(input: {
  partnerId: PartnerId;
  keyId: ApiKeyId;
  prefix: ApiKeyPrefix;
  scopes: readonly Scope[];
  now: Date;
}): IssuedApiKey {
  const apiKey = `${input.prefix}${randomBytes(32).toString('hex')}`;
  const record: ApiKeyRecord = {
    keyId: input.keyId,
    partnerId: input.partnerId,
    keyHash: hashApiKey(apiKey),
    prefix: input.prefix,
    last4: apiKey.slice(-4),
    scopes: [...input.scopes],
    status: 'active',
    createdAt: input.now.toISOString(),
  };
  return { apiKey, record };
}
