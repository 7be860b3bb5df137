import type { RateLimitState } from '../domain/errors';

export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly cookies?: string[];
}

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  body: JSON.stringify(body),
});

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), in seconds. */
export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  'RateLimit-Limit': String(state.limit),
  'RateLimit-Remaining': String(state.remaining),
  'RateLimit-Reset': String(state.resetSeconds),
});

/** An HTML page of the embed host; never cached (it shows a signed-in user or a one-time outcome). */
export const html = (
  statusCode: number,
  body: string,
  extra: { headers?: Record<string, string>; cookies?: string[] } = {},
): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...extra.headers },
  body,
  ...(extra.cookies ? { cookies: extra.cookies } : {}),
});

/** 303 See Other: the browser follows with a GET, whatever the original method. */
export const seeOther = (location: string, cookies: string[] = []): HttpResponse => ({
  statusCode: 303,
  headers: { Location: location, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' },
  body: '',
  ...(cookies.length ? { cookies } : {}),
});
