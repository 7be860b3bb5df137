import type { HttpEvent } from '../http/http-context';
import { canonicalTimeZone } from '../domain/time-zones';

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
 * A cookie's value from an API Gateway v2 event (`cookies` holds `name=value` pairs).
 * Sent twice is no value at all: the browser holds only one of ours, so a second one
 * was planted (a related subdomain or a network attacker can add cookies, though never
 * overwrite a `__Host-` one), and which of the two is ours cannot be told; taking either
 * could sign the user in as the planter (session fixation).
 */
function readCookie(event: HttpEvent, name: string): string | undefined {
  let found: string | undefined;
  for (const pair of event.cookies ?? []) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) {
      if (found !== undefined) return undefined;
      found = pair.slice(separator + 1).trim();
    }
  }
  return found;
}

export const readSessionCookie = (event: HttpEvent): string | undefined => readCookie(event, EMBED_SESSION_COOKIE);

/**
 * The browser's IANA time zone, as the embed SDK put it on the iframe's first address
 * (`tz`): kept beside the session cookie, with the same attributes, so every page can
 * show times in it. A name Intl does not know is never set, and never read back.
 */
const EMBED_TIME_ZONE_COOKIE = '__Host-embed_tz';

export const timeZoneCookie = (zone: string): string =>
  `${EMBED_TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; ${ATTRIBUTES}`;

export function readTimeZoneCookie(event: HttpEvent): string | undefined {
  const value = readCookie(event, EMBED_TIME_ZONE_COOKIE);
  if (value === undefined) return undefined;
  try {
    return canonicalTimeZone(decodeURIComponent(value));
  } catch {
    return undefined;
  }
}
