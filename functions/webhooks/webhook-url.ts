import { isIP } from 'node:net';
import { classifyAddress } from './destination-address';

const MAX_WEBHOOK_URL_LENGTH = 2048;

export type UrlCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

/** The hostname of a URL without the brackets of an IPv6 literal. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The checks an operator gets when setting a webhook URL (docs/architecture.md, "Webhook URLs").
 * Production: HTTPS only, and no literal or obviously local destination. Names are only
 * resolved at connection time, where the dispatcher refuses non-public answers, so a DNS
 * record that changes later cannot get around this. Sandbox and local: http:// and
 * loopback are fine, for development receivers.
 */
export function checkWebhookUrl(raw: string, requireHttpsPublic: boolean): UrlCheck {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return { ok: false, reason: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must be an http(s) URL' };
  // Credentials in the URL would end up in logs and the delivery log.
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials' };
  if (url.hash) return { ok: false, reason: 'must not contain a fragment' };
  if (!requireHttpsPublic) return { ok: true, url };

  if (url.protocol !== 'https:') return { ok: false, reason: 'must use HTTPS in production' };
  const host = hostOf(url);
  if (isIP(host)) {
    const address = classifyAddress(host);
    if (!address.public) return { ok: false, reason: `points to a non-public address (${address.range})` };
  } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return { ok: false, reason: 'must name a public host' };
  }
  return { ok: true, url };
}
