import type { JsonSchema } from './json-schema';

/**
 * The alternatives of a schema that is one of several (`anyOf`/`oneOf` alone). On an
 * object with its own properties, `oneOf` is a rule about them (the handshake's "exactly
 * one of `internal_user_id` and `profile_id`"), not another shape.
 */
export function alternativesOf(schema: JsonSchema): JsonSchema[] | undefined {
  if (schema.properties !== undefined) return undefined;
  return (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
}

/** How a JSON Schema reads in one cell of a table: `string (uuid)`, `array of object`, `"pending"`. */
export function typeLabel(schema: JsonSchema): string {
  if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' \\| ');
  const alternatives = alternativesOf(schema);
  if (alternatives) return alternatives.map(typeLabel).join(' or ');
  if (schema.type === 'array') return `array of ${typeLabel((schema.items ?? {}) as JsonSchema)}`;
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  return `${String(schema.type ?? 'any')}${format}`;
}

/** Constraints worth a reader's attention, in words. */
export function rulesOf(schema: JsonSchema): string {
  const rules: string[] = [];
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    rules.push(schema.minLength === 1 ? 'not blank' : `at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number') rules.push(`at most ${schema.maxLength} characters`);
  // A described rule reads better in words than as its pattern, which stays in docs/openapi.json.
  if (typeof schema.description === 'string') rules.push(schema.description);
  else if (typeof schema.pattern === 'string') rules.push(`matches \`${schema.pattern}\``);
  if (typeof schema.minItems === 'number')
    rules.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (typeof schema.maxItems === 'number')
    rules.push(schema.maxItems === 0 ? 'always empty' : `at most ${schema.maxItems} items`);
  if (typeof schema.minimum === 'number') rules.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') rules.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') rules.push(`≤ ${schema.maximum}`);
  if (typeof schema.multipleOf === 'number') rules.push(`a multiple of ${schema.multipleOf}`);
  if ('default' in schema) rules.push(`default \`${JSON.stringify(schema.default)}\``);
  return rules.join('; ');
}

export interface FieldRow {
  readonly path: string;
  readonly schema: JsonSchema;
  readonly required: boolean;
}

/** Every field of an object schema, nested objects and arrays of objects flattened (`shippingLocations[].address.city`). */
export function fieldRows(schema: JsonSchema, prefix = ''): FieldRow[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const row: FieldRow = { path, schema: property, required: required.has(name) };
    if (property.type === 'object' && property.properties) return [row, ...fieldRows(property, `${path}.`)];
    const items = property.items as JsonSchema | undefined;
    if (property.type === 'array' && items?.type === 'object' && items.properties)
      return [row, ...fieldRows(items, `${path}[].`)];
    return [row];
  });
}
