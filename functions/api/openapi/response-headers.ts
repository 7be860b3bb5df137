/**
 * What each documented response header means and holds. The values come from the
 * pipeline (request-context.ts, responses.ts `rateLimitHeaders`, error-responder.ts,
 * idempotency-key.ts); the contract tests check every response's headers against these.
 */
import * as z from 'zod/mini';
import type { ResponseHeaderName } from './route-document';

export interface ResponseHeaderDocument {
  readonly description: string;
  readonly schema: z.ZodMiniType;
}

export const RESPONSE_HEADERS: Readonly<Record<ResponseHeaderName, ResponseHeaderDocument>> = {
  'Request-Id': {
    description:
      "The id of this request (a UUID; deployed, API Gateway's request id). Quote it when asking us about a request.",
    schema: z.string().check(z.minLength(1)),
  },
  'RateLimit-Limit': {
    description: 'Requests of this route your partner account may make per one-minute window.',
    schema: z.int().check(z.minimum(1)),
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: z.int().check(z.minimum(0)),
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    schema: z.int().check(z.minimum(1)),
  },
  'Retry-After': {
    description: "Seconds to wait before retrying; the same as the body's `retry_after`.",
    schema: z.int().check(z.minimum(1)),
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the stored answer to an earlier request with the same `Idempotency-Key`: nothing ran again.',
    schema: z.literal('true'),
  },
};
