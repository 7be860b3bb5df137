/**
 * Verifies the `X-Service-Signature` header of an order webhook: `sha256=` followed by
 * the lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret (the whole
 * string, `whsec_` prefix included).
 *
 * - `rawBody` must be the exact bytes received (a Buffer, or the string decoded as UTF-8),
 *   before any JSON parsing: re-serialising a parsed body changes the bytes.
 * - `secret` may be a list: during a rotation's overlap, pass the old and the new one.
 * - Returns false (never throws) for a missing or malformed header, a wrong length or a
 *   mismatch; the comparison runs in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_HEADER = /^sha256=([0-9a-f]{64})$/;

/**
 * The webhook secret, or every secret live during a rotation's overlap (the old and the
 * new one): a delivery verifies when it verifies with any of them.
 */
export type WebhookSecrets = string | readonly string[];

/** The non-empty secrets given: an empty secret never verifies anything. (Here, so this file stays one to copy.) */
export const secretList = (secrets: WebhookSecrets): string[] =>
  (typeof secrets === 'string' ? [secrets] : [...secrets]).filter(
    (secret) => typeof secret === 'string' && secret.length > 0,
  );

export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: WebhookSecrets,
): boolean {
  if (typeof header !== 'string') return false;
  const match = SIGNATURE_HEADER.exec(header.trim());
  if (!match) return false;
  const received = Buffer.from(match[1] as string, 'hex');
  return secretList(secret).some((key) => {
    const expected = createHmac('sha256', key).update(rawBody).digest();
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
}
