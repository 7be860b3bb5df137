import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller } from '../domain/access/authenticator';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** An API Gateway HTTP API (payload 2.0) Lambda handler, as Lambda and the local adapter call it. */
export type HttpLambda = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/**
 * What an HTTP pipeline learns about a request, on Lambda's context (where middy hands it
 * to the handler). Lambda passes a plain Context, so every field starts absent and the
 * middlewares fill them in, in order; `filledIn` reads one a middleware earlier set. The
 * partner API's pipeline adds its own fields (api/pipeline/api-context.ts).
 */
export interface HttpContext<D> extends Context {
  requestId?: string;
  startedAt?: number;
  deps?: D;
  /** Who called, once authenticated (the partner API); the embed host has no caller. */
  caller?: Caller;
}

/** A field an earlier middleware sets: its absence is a pipeline assembled wrongly, never a request's fault. */
export function filledIn<T>(value: T | undefined, field: string): T {
  if (value === undefined)
    throw new Error(`The pipeline did not set ${field}: a middleware is missing or out of order`);
  return value;
}

/** Header lookup by lower-case name: API Gateway v2 lower-cases them, the local adapter too. */
export const header = (event: HttpEvent, name: string): string | undefined => event.headers?.[name.toLowerCase()];
