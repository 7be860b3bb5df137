/**
 * sdk/src/api-types.ts: TypeScript types of every schema in the partner API document,
 * so the SDK's request and response types come from docs/openapi.json (and so from the
 * zod schemas the service uses). Covers the JSON Schema the document uses: objects,
 * arrays, scalars, `const`, `enum` and `anyOf`/`oneOf`. Objects are closed: a request
 * field the API ignores is still a typo worth a compile error.
 */
import type { JsonSchema } from './json-schema';
import { alternativesOf } from './schema-shape';
import type { OpenApiDocument } from './openapi-document';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Enums longer than this are typed by their values' type. */
const MAX_ENUM_UNION = 50;

function typeOf(schema: JsonSchema, indent: string): string {
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() as string;
  if ('const' in schema) return JSON.stringify(schema.const);
  // A list too long to read as a union (the IANA time zones) is its values' type: the document keeps the list.
  if (Array.isArray(schema.enum) && schema.enum.length > MAX_ENUM_UNION)
    return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))].join(' | ');
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  // JSON Schema's `type: ["string", "null"]` (a nullable field).
  if (Array.isArray(schema.type))
    return (schema.type as string[]).map((type) => typeOf({ ...schema, type }, indent)).join(' | ');
  const alternatives = alternativesOf(schema);
  if (alternatives) return alternatives.map((alternative) => typeOf(alternative, indent)).join(' | ');
  // `{ type: ['number', 'null'] }`: a nullable scalar.
  if (Array.isArray(schema.type))
    return (schema.type as string[]).map((type) => typeOf({ ...schema, type }, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = typeOf((schema.items ?? {}) as JsonSchema, indent);
      return /^[A-Za-z0-9_]+$/.test(items) ? `${items}[]` : `Array<${items}>`;
    }
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema: JsonSchema, indent: string): string {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const required = new Set((schema.required ?? []) as string[]);
  const inner = `${indent}  `;
  const lines = properties.map(([name, property]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${inner}${key}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`;
  });
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

export function renderSdkTypes(document: OpenApiDocument): string {
  const declarations = Object.entries(document.components.schemas).map(([name, schema]) => {
    const type = typeOf(schema, '');
    // An object without properties is `Record<string, never>`, which an interface cannot spell.
    return schema.type === 'object' && type.startsWith('{')
      ? `export interface ${name} ${type}`
      : `export type ${name} = ${type};`;
  });
  const eventsOf = (prefix: string) =>
    Object.entries(document.webhooks)
      .filter(([kind]) => kind.startsWith(prefix))
      .map(([, methods]) => {
        const media = ((methods.post?.requestBody as JsonSchema).content as Record<string, JsonSchema>)[
          'application/json'
        ] as JsonSchema;
        return typeOf(media.schema as JsonSchema, '');
      });
  return [
    '// Generated from docs/openapi.json by `npm run openapi`; do not edit.',
    '',
    ...declarations.flatMap((declaration) => [declaration, '']),
    '/** Every order webhook body, told apart by `event`. */',
    `export type OrderEvent = ${eventsOf('order.').join(' | ')};`,
    '',
    "export type OrderEventKind = OrderEvent['event'];",
    '',
    '/** Every approval webhook body, told apart by `event` (sent only to endpoints subscribed to the approval kinds). */',
    `export type ApprovalEvent = ${eventsOf('approval.').join(' | ')};`,
    '',
    "export type ApprovalEventKind = ApprovalEvent['event'];",
    '',
    '/** Every invoice webhook body, told apart by `event` (sent only to endpoints subscribed to the invoice kinds). */',
    `export type InvoiceEvent = ${eventsOf('invoice.').join(' | ')};`,
    '',
    "export type InvoiceEventKind = InvoiceEvent['event'];",
    '',
    '/** Every webhook body, told apart by `event`: what `webhooks.constructEvent` returns. */',
    'export type WebhookEvent = OrderEvent | ApprovalEvent | InvoiceEvent;',
    '',
    "export type WebhookEventKind = WebhookEvent['event'];",
    '',
  ].join('\n');
}
