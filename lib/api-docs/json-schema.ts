import { z } from 'zod';
import type * as core from 'zod/v4/core';

export type JsonSchema = { [keyword: string]: unknown };

/**
 * In what the service answers, a format says enough (the values are ours); zod's patterns
 * for them would only make the document unreadable. In what it accepts they stay: zod's
 * rules are stricter than the formats' (ajv's `uuid` takes any version and a `urn:uuid:`
 * prefix, its `email` and `date-time` far more than zod does).
 */
const FORMATS_WITHOUT_PATTERN = new Set(['uuid', 'date-time', 'email']);

/**
 * A zod schema (classic or mini) as a JSON Schema (draft 2020-12, OpenAPI 3.1's dialect):
 * `input` for what a route accepts (before trimming, defaults and pipes), `output` for
 * what it answers with. Refinements and transforms zod cannot convert carry their JSON
 * Schema form as metadata (`functions/domain/documented-rules.ts`), merged in here; the
 * few rules JSON Schema cannot say (unique ids across array items) are in descriptions.
 */
export function toJsonSchema(schema: core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    reused: 'inline',
  }) as JsonSchema;
  delete converted.$schema;
  return tidy(converted, io) as JsonSchema;
}

function tidy(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, io));
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as JsonSchema)
    .filter(
      ([key]) =>
        !(io === 'output' && key === 'pattern' && FORMATS_WITHOUT_PATTERN.has(String((node as JsonSchema).format))),
    )
    // zod writes Number.MAX_SAFE_INTEGER as an integer's maximum; it says nothing to a reader.
    .filter(([key, value]) => !(key === 'maximum' && value === Number.MAX_SAFE_INTEGER))
    // `[0-9]`, not `\d` (zod's date-time): Python's `\d`, as request generators such as Schemathesis read it, takes any script's digits.
    .map(
      ([key, value]) =>
        [
          key,
          io === 'input' && key === 'pattern' && typeof value === 'string'
            ? value.replaceAll(String.raw`\d`, '[0-9]')
            : tidy(value, io),
        ] as const,
    );
  return Object.fromEntries(entries);
}
