import type { ApiEvent } from '../api/pipeline/api-context';

/**
 * The embedded session cookie. `__Host-` pins it to the embed host (Secure, Path=/, no
 * Domain); SameSite=None lets it travel inside the partner's cross-site iframe;
 * Partitioned (CHIPS) keys it to the partner's top-level site, so third-party-cookie
 * blocking does not drop it and no other site's iframe can use it. No Max-Age: the
 * server decides expiry (idle and absolute), the browser drops it when it closes.
 */
export const EMBED_SESSION_COOKIE = '__Host-embed_session';

const ATTRIBUTES = 'HttpOnly; Secure; SameSite=None; Partitioned; Path=/';

export const sessionCookie = (value: string): string => `${EMBED_SESSION_COOKIE}=${value}; ${ATTRIBUTES}`;

export const clearedSessionCookie = (): string => `${EMBED_SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

/**
 * The cookie's value from an API Gateway v2 event (`cookies` holds `name=value` pairs).
 * Sent twice is no session at all: the browser holds only one of ours, so a second one
 * was planted (a related subdomain or a network attacker can add cookies, though never
 * overwrite a `__Host-` one), and which of the two is ours cannot be told; taking either
 * could sign the user in as the planter (session fixation).
 */
export function readSessionCookie(event: ApiEvent): string | undefined {
  let found: string | undefined;
  for (const pair of event.cookies ?? []) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === EMBED_SESSION_COOKIE) {
      if (found !== undefined) return undefined;
      found = pair.slice(separator + 1).trim();
    }
  }
  return found;
}
