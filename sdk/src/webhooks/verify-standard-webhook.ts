/**
 * Verifies a Standard Webhooks signature (https://www.standardwebhooks.com):
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * entries (one per live secret during a rotation), and `webhook-timestamp` must be within
 * `toleranceSeconds` of now, so a captured delivery cannot be replayed later.
 *
 * The key is the base64 after `whsec_` for secrets of that form (the standard's rule),
 * else the secret's UTF-8 bytes. `secret` may be a list: during a rotation's overlap,
 * pass the old and the new one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretList, type WebhookSecrets } from './verify-webhook-signature.js';

export interface StandardWebhookHeaders {
  readonly id: string | undefined;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
}

export interface StandardWebhookOptions {
  /** Default 300 (the standard's suggestion). */
  readonly toleranceSeconds?: number;
  /** Default the system clock. */
  readonly now?: () => Date;
}

const signingKey = (secret: string): Buffer =>
  secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');

export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: StandardWebhookHeaders,
  secret: WebhookSecrets,
  options: StandardWebhookOptions = {},
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^[0-9]+$/.test(timestamp)) return false;
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const received = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  return secretList(secret).some((key) => {
    const expected = createHmac('sha256', signingKey(key)).update(signed).digest();
    return received.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
}
