import { z } from 'zod';
import type * as core from 'zod/v4/core';

export type JsonSchema = { [keyword: string]: unknown };

/** Formats ajv checks itself (ajv-formats); zod's equivalent patterns only make the document unreadable. */
const FORMATS_WITHOUT_PATTERN = new Set(['uuid', 'date-time', 'email']);

/**
 * A zod schema (classic or mini) as a JSON Schema (draft 2020-12, OpenAPI 3.1's dialect):
 * `input` for what a route accepts (before trimming, defaults and pipes), `output` for
 * what it answers with. Refinements with no JSON Schema form (the handshake's "exactly
 * one identifier", cross-location rules) are described in the route's prose.
 */
export function toJsonSchema(schema: core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw', reused: 'inline' }) as JsonSchema;
  delete converted.$schema;
  return tidy(converted) as JsonSchema;
}

function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as JsonSchema)
    .filter(([key]) => !(key === 'pattern' && FORMATS_WITHOUT_PATTERN.has(String((node as JsonSchema).format))))
    // zod writes Number.MAX_SAFE_INTEGER as an integer's maximum; it says nothing to a reader.
    .filter(([key, value]) => !(key === 'maximum' && value === Number.MAX_SAFE_INTEGER))
    .map(([key, value]) => [key, tidy(value)] as const);
  return Object.fromEntries(entries);
}
