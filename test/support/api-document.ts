/**
 * The committed partner API document (docs/openapi.json) as the contract tests and SDK
 * tests see it: its routes and statuses, and ajv validators (draft 2020-12) for a
 * response's body and headers, so what the service answers is held to what we publish.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type JsonObject = Record<string, any>;

export const API_DOCUMENT: JsonObject = JSON.parse(
  readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'),
);

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);

const compiled = new Map<string, ValidateFunction>();
const validator = (key: string, schema: JsonObject): ValidateFunction => {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
};

/** A `#/components/...` reference, resolved in the document. */
export const resolveRef = (node: JsonObject): JsonObject =>
  typeof node.$ref === 'string'
    ? (node.$ref as string)
        .slice(2)
        .split('/')
        .reduce((at: JsonObject, key: string) => at[key], API_DOCUMENT)
    : node;

/** Problems of `value` against a schema of the document, [] when it conforms. */
export function schemaProblems(schema: JsonObject, value: unknown, key = JSON.stringify(schema)): string[] {
  const validate = validator(key, resolveRef(schema));
  return validate(value)
    ? []
    : (validate.errors ?? []).map(
        (error) => `${error.instancePath || '(root)'} ${error.message} ${JSON.stringify(error.params)}`,
      );
}

export interface DocumentedRoute {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly operation: JsonObject;
  readonly statuses: number[];
}

export const DOCUMENTED_ROUTES: DocumentedRoute[] = Object.entries(
  API_DOCUMENT.paths as Record<string, JsonObject>,
).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    method,
    path,
    operation,
    statuses: Object.keys(operation.responses).map(Number),
  })),
);

/** Headers every HTTP response may carry whatever the route: transport, caching and the local server's hardening. */
const UNDOCUMENTED_ALLOWED = new Set([
  'content-type',
  'content-length',
  'cache-control',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'x-content-type-options',
  'content-security-policy',
]);

const headerValue = (schema: JsonObject, raw: string): unknown => {
  const type = resolveRef(schema).type;
  return (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
};

/**
 * Everything in a real response that disagrees with the document: an undocumented
 * status, a body off its schema, a documented header missing or malformed, or a header
 * the document does not mention.
 */
export function responseProblems(
  routeKey: string,
  response: { status: number; headers: Headers; body: unknown },
): string[] {
  const route = DOCUMENTED_ROUTES.find((candidate) => candidate.key === routeKey);
  if (!route) return [`${routeKey} is not in docs/openapi.json`];
  const documented = route.operation.responses[String(response.status)] as JsonObject | undefined;
  if (!documented) return [`${routeKey} answered ${response.status}, which docs/openapi.json does not list`];
  const problems = schemaProblems(documented.content['application/json'].schema, response.body).map(
    (problem) => `body: ${problem}`,
  );
  const headers = (documented.headers ?? {}) as Record<string, JsonObject>;
  for (const [name, header] of Object.entries(headers)) {
    const raw = response.headers.get(name);
    if (raw === null) {
      if (header.required) problems.push(`header ${name} is documented as always present but is missing`);
      continue;
    }
    problems.push(
      ...schemaProblems(header.schema, headerValue(header.schema, raw)).map((problem) => `header ${name}: ${problem}`),
    );
  }
  const documentedNames = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  response.headers.forEach((_value, name) => {
    if (!documentedNames.has(name) && !UNDOCUMENTED_ALLOWED.has(name))
      problems.push(`header ${name} is not in docs/openapi.json`);
  });
  return problems;
}
