/**
 * Every function's handler bundle within its size budget (lib/infrastructure/bundle-budgets.ts; one still over it
 * within its size today, so it cannot grow), built by esbuild
 * from its entry with the options the stack bundles it with, in memory. A failure names the five largest inputs,
 * where a library that should load on demand (ON_DEMAND_PACKAGES) shows first.
 */
import { resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ENTRIES, type FunctionName } from '../../functions/resources/resource-definitions';
import { embedBrowserScriptDefines } from '../../lib/browser-bundling/embed-browser-scripts';
import { bundleCeilingKb } from '../../lib/infrastructure/bundle-budgets';
import { handlerBuildOptions } from '../../lib/infrastructure/bundling';

const largestInputs = (metafile: Metafile): string =>
  Object.entries(Object.values(metafile.outputs)[0]?.inputs ?? {})
    .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
    .slice(0, 5)
    .map(([path, input]) => `${path} ${(input.bytesInOutput / 1024).toFixed(1)} KB`)
    .join(', ');

describe('the Lambda bundles', () => {
  it('are each within their size budget, as the stack bundles them', async () => {
    const embedDefines = embedBrowserScriptDefines();
    const overBudget: string[] = [];
    for (const fn of Object.keys(FUNCTION_ENTRIES) as FunctionName[]) {
      const { outputFiles, metafile } = await build({
        ...handlerBuildOptions(fn, fn === 'embed' ? embedDefines : {}),
        entryPoints: [resolve(FUNCTION_ENTRIES[fn])],
        outfile: `${fn}.mjs`,
        write: false,
        metafile: true,
      });
      const sizeKb = (outputFiles[0]?.contents.length ?? 0) / 1024;
      if (sizeKb > bundleCeilingKb(fn))
        overBudget.push(
          `${fn}: ${sizeKb.toFixed(1)} KB, at most ${bundleCeilingKb(fn)} KB; largest inputs ${largestInputs(metafile)}`,
        );
    }
    expect(overBudget).toEqual([]);
  });
});
