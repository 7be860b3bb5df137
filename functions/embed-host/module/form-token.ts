import { createHmac, timingSafeEqual } from 'node:crypto';
import { RequestForgeryRefused } from '../../domain/errors';
import { type HttpEvent, header } from '../../http/http-context';

/**
 * The module's per-session form token: an HMAC of a fixed label keyed with the session
 * cookie's secret. Only the browser holding the cookie (HttpOnly, so not even a script
 * on our pages) and this host can compute it, it changes with every session, and nothing
 * new is stored. It is not the SHA-256 we keep of the secret, so a page never shows
 * anything the sessions table holds.
 */
export const formToken = (cookieValue: string): string =>
  createHmac('sha256', cookieValue).update('embedded-module form token v1').digest('base64url');

/**
 * Where the request comes from, as the browser says: `Sec-Fetch-Site`, else `Origin`.
 * Our `Referrer-Policy: no-referrer` makes our own forms' `Origin` the string `null`
 * in browsers without Fetch metadata, so `null` (and no Origin at all) passes here and
 * the token decides.
 */
function isSameOriginRequest(event: HttpEvent, embedBaseUrl: string): boolean {
  const site = header(event, 'sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = header(event, 'origin');
  return origin === undefined || origin === 'null' || origin === new URL(embedBaseUrl).origin;
}

/** The same-origin half of the check, before any session is read (a foreign post costs us nothing). */
export function assertSameOrigin(event: HttpEvent, embedBaseUrl: string): void {
  if (!isSameOriginRequest(event, embedBaseUrl)) throw new RequestForgeryRefused('foreign-origin');
}

/** The token half, once the session (and so its secret) is known; compared in constant time. */
export function assertFormToken(sent: string | undefined, cookieValue: string): void {
  if (!sent) throw new RequestForgeryRefused('missing-token');
  const expected = Buffer.from(formToken(cookieValue));
  const received = Buffer.from(sent);
  if (received.length !== expected.length || !timingSafeEqual(received, expected))
    throw new RequestForgeryRefused('wrong-token');
}
