import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller } from '../../domain/access/authenticator';
import type { RateLimitState } from '../../domain/errors';
import type { IdempotentAttempt } from '../../domain/idempotency/idempotency-guard';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** An API Gateway HTTP API (payload 2.0) Lambda handler, as Lambda and the local adapter call it. */
export type HttpLambda = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/**
 * What the pipeline learns about a request, on Lambda's context (where middy hands it
 * to the handler). Lambda passes a plain Context, so every field starts absent and the
 * middlewares fill them in, in order; `filledIn` reads one a middleware earlier set.
 */
export interface ApiContext<D> extends Context {
  requestId?: string;
  startedAt?: number;
  deps?: D;
  caller?: Caller;
  rateLimit?: RateLimitState;
  body?: Record<string, unknown>;
  /** Set when the request carries an Idempotency-Key: its first run, or the outcome to replay. */
  idempotency?: IdempotentAttempt;
}

/** A field an earlier middleware sets: its absence is a pipeline assembled wrongly, never a request's fault. */
export function filledIn<T>(value: T | undefined, field: string): T {
  if (value === undefined)
    throw new Error(`The pipeline did not set ${field}: a middleware is missing or out of order`);
  return value;
}

/** Header lookup by lower-case name: API Gateway v2 lower-cases them, the local adapter too. */
export const header = (event: ApiEvent, name: string): string | undefined => event.headers?.[name.toLowerCase()];
