/**
 * docs/api.md: the partner API document (docs/openapi.json) for people, rendered from
 * the document itself by `npm run openapi`, so the two cannot disagree.
 */
import type { JsonSchema } from './json-schema';
import type { OpenApiDocument } from './openapi-document';
import { alternativesOf, fieldRows, rulesOf, typeLabel } from './schema-shape';

const SECURITY_LINE: Record<string, string> = {
  bearerApiKey: '`Authorization: Bearer <API_KEY>`',
  headerApiKey: '`X-API-Key: <API_KEY>`',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const json = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
const resolve = (document: OpenApiDocument, schema: JsonSchema): JsonSchema =>
  typeof schema.$ref === 'string'
    ? (document.components.schemas[schema.$ref.split('/').pop() as string] as JsonSchema)
    : schema;
const schemaName = (schema: JsonSchema) => (typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined);

function fieldTable(schema: JsonSchema, { withRequired }: { withRequired: boolean }): string {
  const alternatives = alternativesOf(schema);
  if (alternatives)
    return alternatives
      .map((alternative, index) => `One of (${index + 1}):\n\n${fieldTable(alternative, { withRequired })}`)
      .join('\n\n');
  const rows = fieldRows(schema);
  const header = withRequired
    ? '| Field | Type | Required | Rules |\n|---|---|---|---|'
    : '| Field | Type | Always present | Rules |\n|---|---|---|---|';
  return [
    header,
    ...rows.map(
      (row) =>
        `| \`${row.path}\` | ${cell(typeLabel(row.schema))} | ${row.required ? 'yes' : 'no'} | ${cell(rulesOf(row.schema))} |`,
    ),
  ].join('\n');
}

function operationSection(document: OpenApiDocument, method: string, path: string, operation: JsonSchema): string {
  const security = Object.keys(((operation.security as JsonSchema[])[0] ?? {}) as JsonSchema)[0] ?? '';
  const parts = [
    `### \`${method.toUpperCase()} ${path}\`: ${operation.summary as string}`,
    '',
    operation.description as string,
    '',
  ];
  if (operation['x-caller'] === 'stripe')
    parts.push('- Caller: Stripe, signing the body (`Stripe-Signature`); not a partner route, no key');
  else
    parts.push(
      `- Key: ${SECURITY_LINE[security] ?? security}, scope \`${operation['x-scope'] as string}\``,
      `- Rate limit: ${operation['x-rate-limit-per-minute'] as number} requests per minute per partner`,
    );
  if (operation['x-sandbox-only']) parts.push('- Sandbox only: production answers 404');
  const parameters = (operation.parameters ?? []) as JsonSchema[];
  const headerParameters = parameters.map((parameter) =>
    typeof parameter.$ref === 'string'
      ? (((document.components as JsonSchema).parameters as Record<string, JsonSchema>)[
          parameter.$ref.split('/').pop() as string
        ] as JsonSchema)
      : parameter,
  );
  if (headerParameters.length > 0) {
    parts.push('', '| Parameter | In | Required | Description |', '|---|---|---|---|');
    for (const parameter of headerParameters) {
      parts.push(
        `| \`${parameter.name as string}\` | ${parameter.in as string} | ${parameter.required ? 'yes' : 'no'} | ${cell(parameter.description as string)} |`,
      );
    }
  }
  const requestBody = operation.requestBody as JsonSchema | undefined;
  if (requestBody) {
    const media = (requestBody.content as Record<string, JsonSchema>)['application/json'] as JsonSchema;
    const schema = media.schema as JsonSchema;
    const body = resolve(document, schema);
    parts.push('', `Request body (\`${schemaName(schema)}\`):`, '', fieldTable(body, { withRequired: true }));
    if (typeof body.description === 'string') parts.push('', body.description);
    parts.push('', json(media.example));
  }
  parts.push('', '| Status | Body | Headers | When |', '|---|---|---|---|');
  const responses = Object.entries(operation.responses as Record<string, JsonSchema>);
  for (const [status, response] of responses) {
    const media = (response.content as Record<string, JsonSchema>)['application/json'] as JsonSchema;
    const headers = Object.entries((response.headers ?? {}) as Record<string, JsonSchema>)
      .map(([name, header]) => (header.required ? `\`${name}\`` : `\`${name}\` (sometimes)`))
      .join(', ');
    parts.push(
      `| ${status} | \`${schemaName(media.schema as JsonSchema)}\` | ${headers} | ${cell(response.description as string)} |`,
    );
  }
  for (const [status, response] of responses) {
    const media = (response.content as Record<string, JsonSchema>)['application/json'] as JsonSchema;
    parts.push(
      '',
      `#### ${status}: \`${schemaName(media.schema as JsonSchema)}\``,
      '',
      fieldTable(resolve(document, media.schema as JsonSchema), { withRequired: false }),
    );
    for (const example of Object.values(media.examples as Record<string, JsonSchema>))
      parts.push('', `${example.summary as string}:`, '', json(example.value));
  }
  return parts.join('\n');
}

function webhookSection(document: OpenApiDocument, kind: string, operation: JsonSchema): string {
  const media = ((operation.requestBody as JsonSchema).content as Record<string, JsonSchema>)[
    'application/json'
  ] as JsonSchema;
  const schema = media.schema as JsonSchema;
  return [
    `### \`${kind}\`: ${operation.summary as string}`,
    '',
    `Body (\`${schemaName(schema)}\`):`,
    '',
    fieldTable(resolve(document, schema), { withRequired: false }),
    '',
    json(media.example),
  ].join('\n');
}

export function renderApiReference(document: OpenApiDocument): string {
  const info = document.info as JsonSchema;
  const servers = (document.servers as JsonSchema[]).map((server) => {
    const variables = Object.entries((server.variables ?? {}) as Record<string, JsonSchema>)
      .map(([name, variable]) => `\`${name}\` = \`${variable.default as string}\``)
      .join(', ');
    return `| \`${server.url as string}\` | ${cell(server.description as string)} | ${variables} |`;
  });
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => operationSection(document, method, path, operation)),
  );
  const firstWebhook = Object.values(document.webhooks)[0]?.post as JsonSchema | undefined;
  const webhookHeaders = ((firstWebhook?.parameters ?? []) as JsonSchema[]).map(
    (header) =>
      `| \`${header.name as string}\` | ${cell(header.description as string)} | \`${header.example as string}\` |`,
  );
  const webhooks = Object.entries(document.webhooks).map(([kind, methods]) =>
    webhookSection(document, kind, methods.post as JsonSchema),
  );
  return [
    `# ${info.title as string} reference (v${info.version as string})`,
    '',
    '<!-- Generated from docs/openapi.json by `npm run openapi`; edit the route table (functions/routes.ts) and the route documents (functions/api/), not this file. -->',
    '',
    `${info.summary as string} The machine-readable form of this page is [openapi.json](openapi.json) (OpenAPI 3.1); the TypeScript SDK is in [sdk/](../sdk/README.md).`,
    '',
    '| Server | What | Variables |',
    '|---|---|---|',
    ...servers,
    '',
    info.description as string,
    '',
    '## Routes',
    '',
    operations.join('\n\n'),
    '',
    '## Webhook deliveries',
    '',
    'Every delivery carries these headers (and `Content-Type: application/json`):',
    '',
    '| Header | Value | Example |',
    '|---|---|---|',
    ...webhookHeaders,
    '',
    webhooks.join('\n\n'),
    '',
  ].join('\n');
}
