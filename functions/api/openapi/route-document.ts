/**
 * What the partner API document (docs/openapi.json) says about one route, declared next
 * to the route's own zod schemas so the document has one source: the schemas the
 * handler parses with and answers with. `lib/api-docs/` turns these into OpenAPI 3.1
 * (`npm run openapi`); nothing on a Lambda's path imports them.
 */
import type * as z from 'zod/v4/core';

/** `components.securitySchemes`: the one header each route reads the key from. */
/** A partner's key in one of its two headers, or Stripe's signature (the one route Stripe calls). */
type SecuritySchemeName = 'bearerApiKey' | 'headerApiKey' | 'stripeSignature';

/** Response headers the document defines once (`components.headers`). */
export type ResponseHeaderName =
  'Request-Id' | 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset' | 'Retry-After' | 'Idempotent-Replayed';

export interface ResponseHeaders {
  /** Present on every response of this status. */
  readonly required: readonly ResponseHeaderName[];
  /** Present on some (e.g. `Idempotent-Replayed` on a replay only). */
  readonly optional?: readonly ResponseHeaderName[];
}

export interface NamedSchema {
  /** Its name under `components.schemas` (and the SDK's generated type name). */
  readonly name: string;
  readonly schema: z.$ZodType;
}

export interface Example {
  readonly summary: string;
  readonly value: unknown;
}

export interface ResponseDocument {
  readonly description: string;
  readonly body: NamedSchema;
  /** At least one; each must validate against `body` (test/api-docs checks). */
  readonly examples: Readonly<Record<string, Example>>;
  readonly headers: ResponseHeaders;
}

export interface ParameterDocument {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description: string;
  readonly schema: z.$ZodType;
}

/**
 * What a route's document declares beside the route table: method, path, credential,
 * scope, limit and sandbox-only are the route's row in functions/routes.ts.
 */
export interface RouteDocument {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  /** Markdown, for people. */
  readonly description: string;
  /** Honours the optional `Idempotency-Key` request header. */
  readonly idempotencyKey?: boolean;
  readonly parameters?: readonly ParameterDocument[];
  readonly requestBody?: NamedSchema & {
    readonly example: unknown;
    /** `false` when the route reads a missing body as `{}` (default `true`). */
    readonly required?: boolean;
  };
  /** Every status the route can answer, by status code. */
  readonly responses: Readonly<Record<number, ResponseDocument>>;
}

/** A route of the table with its document: one operation of docs/openapi.json. */
export interface DocumentedRoute extends RouteDocument {
  readonly method: 'get' | 'post' | 'patch';
  /** With the `/v1` segment, as the contract writes paths; `{name}` for path parameters. */
  readonly path: string;
  readonly security: SecuritySchemeName;
  /** Key scope the route needs; `null` on Stripe's route (no key). */
  readonly scope: string | null;
  /** Requests per partner per minute; `null` on Stripe's route (no partner). */
  readonly limitPerMinute: number | null;
  /** Served by the sandbox only (production answers 404): the operation lists the sandbox servers only. */
  readonly sandboxOnly: boolean;
}
