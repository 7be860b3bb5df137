import { randomBytes } from 'node:crypto';

/**
 * `whsec_` + 32 random bytes in standard base64: 256 bits, and the Standard Webhooks
 * form, so any of its libraries takes the secret as it is printed.
 */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A secret the partner chose (contract: "a preferred signing secret"): long enough to
 * resist guessing, printable, no whitespace (it is pasted into configs).
 */
export function checkPreferredSecret(secret: string): string | undefined {
  if (secret.length < 24) return 'must be at least 24 characters';
  if (secret.length > 256) return 'must be at most 256 characters';
  if (!/^[\x21-\x7e]+$/.test(secret)) return 'must be printable ASCII without spaces';
  return undefined;
}
