import { createHash, randomBytes } from 'node:crypto';

/** Contract, "Session token": 5 minutes from generation, single use. */
export const SESSION_TOKEN_LIFETIME_MS = 5 * 60 * 1000;

const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/**
 * A bearer secret (handshake token or embedded-session id): 32 random bytes as 64
 * lowercase hex characters. Only its SHA-256 is ever stored, so a leaked table cannot
 * be replayed.
 */
export interface MintedSecret {
  readonly secret: string;
  readonly hash: string;
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export function mintSecret(): MintedSecret {
  const secret = randomBytes(32).toString('hex');
  return { secret, hash: hashSecret(secret) };
}

/** Anything else cannot have been minted by us, so it is refused without a lookup. */
export const isWellFormedSecret = (value: string): boolean => SECRET_PATTERN.test(value);
