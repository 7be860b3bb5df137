import { createHmac } from 'node:crypto';

/** `X-Service-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes (prefix included). */
export const signWebhookBody = (rawBody: string, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;

/** `whsec_` + standard base64 (with padding): the Standard Webhooks secret form. */
const STANDARD_SECRET = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;

/**
 * The key of the Standard Webhooks signature. A `whsec_<base64>` secret keys it with the
 * decoded bytes after the prefix (the specification's rule, what every Standard Webhooks
 * library does with such a secret). Any other secret (a partner-chosen one, or one
 * generated before secrets were standard base64) keys it with its UTF-8 bytes, which
 * those libraries accept as a raw key (`{ format: 'raw' }` in the JavaScript one).
 */
function standardSigningKey(secret: string): Buffer {
  const standard = STANDARD_SECRET.exec(secret);
  return standard?.[1] ? Buffer.from(standard[1], 'base64') : Buffer.from(secret, 'utf8');
}

/** One `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` (Standard Webhooks). */
const standardSignature = (deliveryId: string, timestampSeconds: number, rawBody: string, secret: string): string =>
  `v1,${createHmac('sha256', standardSigningKey(secret)).update(`${deliveryId}.${timestampSeconds}.${rawBody}`, 'utf8').digest('base64')}`;

/** `webhook-signature`: one signature per live secret, space-separated, so a receiver on any of them verifies. */
export const standardSignatureHeader = (
  deliveryId: string,
  timestampSeconds: number,
  rawBody: string,
  secrets: readonly string[],
): string => secrets.map((secret) => standardSignature(deliveryId, timestampSeconds, rawBody, secret)).join(' ');
