import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller } from '../domain/access/authenticator';
import type { RateLimitState } from '../domain/errors';
import type { ApiDependencies } from '../composition/api-access';
import type { BaseDependencies } from '../composition/base';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** An API Gateway HTTP API (payload 2.0) Lambda handler, as Lambda and the local adapter call it. */
export type HttpLambda = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** What the shared pipeline learns about a request before the handler runs. */
export interface ApiContext<D extends BaseDependencies = ApiDependencies> extends Context {
  requestId: string;
  startedAt: number;
  deps: D;
  caller?: Caller;
  rateLimit?: RateLimitState;
  body?: unknown;
}

/** Header lookup by lower-case name: API Gateway v2 lower-cases them, the local adapter too. */
export const header = (event: ApiEvent, name: string): string | undefined => event.headers?.[name.toLowerCase()];
