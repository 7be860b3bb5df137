/** The files `npm run openapi` writes, each rendered from the one document; a test compares them with what is committed. */
import { renderApiReference } from './api-reference-markdown';
import { buildOpenApiDocument } from './openapi-document';
import { renderSdkTypes } from './sdk-types';

export function renderApiDocsFiles(): Record<string, string> {
  const document = buildOpenApiDocument();
  return {
    'docs/openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'docs/api.md': renderApiReference(document),
    'sdk/src/api-types.ts': renderSdkTypes(document),
  };
}
