/**
 * Verifies order webhooks, by either of the two signatures every delivery carries.
 *
 * For partners: copy this file into your receiver or import it from the package; it has
 * no dependencies beyond `node:crypto`.
 *
 *   // Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature): refuses replays
 *   const ok = verifyStandardWebhook(rawBody, req.headers, secret);
 *   // The contract's X-Service-Signature (body only)
 *   const ok = verifyWebhookSignature(rawBody, req.headers['x-service-signature'], secret);
 *
 * - `rawBody` must be the exact bytes received (a Buffer, or the string decoded as UTF-8),
 *   before any JSON parsing: re-serialising a parsed body changes the bytes.
 * - `secret` may be a list: during a secret rotation's overlap, pass the old and the new one.
 * - Both return false (never throw) for missing or malformed headers, a wrong length or a
 *   mismatch; comparisons run in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_HEADER = /^sha256=([0-9a-f]{64})$/;
const STANDARD_SECRET = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;
/** How far `webhook-timestamp` may be from the receiver's clock (the Standard Webhooks default). */
const DEFAULT_TOLERANCE_SECONDS = 300;

type Secrets = string | readonly string[];
const secretList = (secrets: Secrets): string[] => (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((s) => typeof s === 'string' && s.length > 0);

const equalBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * `X-Service-Signature`: `sha256=` followed by the lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the webhook secret (the whole string, `whsec_` prefix included).
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: Secrets,
): boolean {
  if (typeof header !== 'string') return false;
  const match = SIGNATURE_HEADER.exec(header.trim());
  if (!match) return false;
  const received = Buffer.from(match[1] as string, 'hex');
  return secretList(secret).some((key) => equalBytes(received, createHmac('sha256', key).update(rawBody).digest()));
}

/**
 * Standard Webhooks: `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256 of
 * "{webhook-id}.{webhook-timestamp}.{body}">`. The key is the base64-decoded part after
 * `whsec_` for a `whsec_<base64>` secret, else the secret's UTF-8 bytes. The timestamp must
 * be within `toleranceSeconds` of `nowSeconds` (default: this machine's clock), so a
 * captured delivery cannot be replayed later. Also de-duplicate by `webhook-id`.
 */
export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  secret: Secrets,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): boolean {
  const header = (name: string) => {
    const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return typeof value === 'string' ? value.trim() : undefined;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !/^\d{1,12}$/.test(timestamp) || !signatures) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;

  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody]);
  const received = signatures
    .split(' ')
    .map((entry) => /^v1,([A-Za-z0-9+/]+={0,2})$/.exec(entry)?.[1])
    .flatMap((value) => (value ? [Buffer.from(value, 'base64')] : []));
  return secretList(secret).some((key) => {
    const standard = STANDARD_SECRET.exec(key);
    const expected = createHmac('sha256', standard?.[1] ? Buffer.from(standard[1], 'base64') : Buffer.from(key, 'utf8')).update(signed).digest();
    return received.some((signature) => equalBytes(signature, expected));
  });
}
