import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderApiDocsFiles } from '../../lib/api-docs/api-docs-files';
import { API_DOCUMENT, type JsonObject, resolveRef, schemaProblems } from '../support/api-document';

const root = new URL('../../', import.meta.url);

/** Every object schema in `schema`, nested ones included. */
function objectSchemas(schema: JsonObject, path = ''): { path: string; schema: JsonObject }[] {
  const found: { path: string; schema: JsonObject }[] = [];
  if (schema.type === 'object') found.push({ path: path || '(root)', schema });
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonObject>))
    found.push(...objectSchemas(property, `${path}.${name}`));
  if (schema.items) found.push(...objectSchemas(schema.items, `${path}[]`));
  for (const alternative of (schema.anyOf ?? schema.oneOf ?? []) as JsonObject[])
    found.push(...objectSchemas(alternative, path));
  return found;
}

const responseSchemas = () => [
  ...Object.values(API_DOCUMENT.paths as Record<string, JsonObject>).flatMap((methods) =>
    Object.values(methods).flatMap((operation: JsonObject) =>
      Object.entries(operation.responses as Record<string, JsonObject>).map(([status, response]) => ({
        where: `${operation.operationId} ${status}`,
        media: response.content['application/json'],
      })),
    ),
  ),
  ...Object.entries(API_DOCUMENT.webhooks as Record<string, JsonObject>).map(([kind, methods]) => ({
    where: `webhook ${kind}`,
    media: methods.post.requestBody.content['application/json'],
  })),
];

describe('the partner API document (docs/openapi.json)', () => {
  it('is what `npm run openapi` generates from the code, as are docs/api.md and the SDK types', async () => {
    for (const [path, expected] of Object.entries(renderApiDocsFiles())) {
      const committed = await readFile(new URL(path, root), 'utf8').catch(() => '');
      expect(committed, `${path} is stale: run npm run openapi and commit the result`).toBe(expected);
    }
  });

  it('closes every response and webhook body object (additionalProperties: false), so an undocumented field fails the contract tests', () => {
    const open = responseSchemas().flatMap(({ where, media }) =>
      objectSchemas(resolveRef(media.schema))
        .filter(({ schema }) => schema.additionalProperties !== false)
        .map(({ path }) => `${where} ${path}`),
    );
    expect(open).toEqual([]);
  });

  it('has examples that conform to their own schemas', () => {
    const problems: string[] = [];
    for (const { where, media } of responseSchemas()) {
      const examples = media.examples
        ? Object.values(media.examples as Record<string, JsonObject>).map((example) => example.value)
        : [media.example];
      expect(examples.length, `${where} has no example`).toBeGreaterThan(0);
      for (const example of examples)
        problems.push(...schemaProblems(media.schema, example).map((problem) => `${where}: ${problem}`));
    }
    for (const methods of Object.values(API_DOCUMENT.paths as Record<string, JsonObject>)) {
      for (const operation of Object.values(methods) as JsonObject[]) {
        const media = operation.requestBody?.content['application/json'];
        if (media)
          problems.push(
            ...schemaProblems(media.schema, media.example).map(
              (problem) => `${operation.operationId} request: ${problem}`,
            ),
          );
      }
    }
    expect(problems).toEqual([]);
  });

  it('passes @redocly/cli lint with no errors, offline', async () => {
    // npm test runs `npm run lint:openapi` too; this keeps the check with the document's other tests.
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      ['--no-install', 'redocly', 'lint', '--config', 'redocly.yaml', 'docs/openapi.json'],
      {
        cwd: root,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    expect(`${stdout}${stderr}`).toMatch(/Your API description is valid/);
  });
});
