import * as z from 'zod/mini';

export type PartnerId = string & { readonly __brand: 'PartnerId' };
export type ApiKeyId = string & { readonly __brand: 'ApiKeyId' };

const PARTNER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Partner ids are UUIDs; anything else names no partner and is never looked up. */
export const isPartnerId = (value: string): value is PartnerId => PARTNER_ID.test(value);

/**
 * What a key may do. New keys get all of them by default (`partner create`, `key issue`);
 * a key keeps exactly the scopes it was issued with, so keys issued before a scope
 * existed do not have it (docs/decisions.md, "New scopes and existing keys").
 */
export const SCOPES = [
  'organization:write',
  'session:write',
  'orders:read',
  'orders:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const ApiKeyPrefix = z.enum(['sk_live_', 'sk_test_']);
export type ApiKeyPrefix = z.infer<typeof ApiKeyPrefix>;

export interface Partner {
  readonly id: PartnerId;
  readonly name: string;
  /** Where webhook failure alerts go. */
  readonly alertEmail?: string;
  /** Origins allowed to frame the embedded module; empty means the environment default. */
  readonly allowedOrigins: readonly string[];
  readonly createdAt: string;
}

export interface ApiKeyRecord {
  readonly keyId: ApiKeyId;
  readonly partnerId: PartnerId;
  /** SHA-256 of the whole key; the key itself is never stored. */
  readonly keyHash: string;
  readonly prefix: ApiKeyPrefix;
  /** Last four characters, so operators can tell keys apart. */
  readonly last4: string;
  readonly scopes: readonly Scope[];
  readonly status: 'active' | 'revoked';
  readonly createdAt: string;
  readonly revokedAt?: string;
}

/** A freshly minted key: the only moment the plaintext exists. */
export interface IssuedApiKey {
  readonly apiKey: string;
  readonly record: ApiKeyRecord;
}
