/** `npm run openapi`: regenerates docs/openapi.json, docs/api.md and sdk/src/api-types.ts from the route declarations. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { renderApiDocsFiles } from '../lib/api-docs/api-docs-files';

for (const [path, content] of Object.entries(renderApiDocsFiles())) {
  await writeFile(resolve(path), content);
  console.log(`wrote ${path}`);
}
