import type { RateLimitState } from '../domain/errors';

export interface JsonResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly cookies?: string[];
}

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): JsonResponse => ({
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
