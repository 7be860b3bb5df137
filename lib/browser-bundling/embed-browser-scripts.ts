/**
 * Builds the embed host's browser scripts from `functions/embed-sdk/`: the CDK app
 * compiles them into the embed Lambda, the local runtime and tests serve them, and the
 * bench weighs them. Dependency-free, minified, for browsers of the last few years.
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { EmbedBrowserScripts } from '../../functions/embed-host/browser-scripts';

const source = (file: string) => fileURLToPath(new URL(`../../functions/embed-sdk/${file}`, import.meta.url));

function bundle(entry: string): string {
  const result = buildSync({
    entryPoints: [source(entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'error',
  });
  return (result.outputFiles[0] as { text: string }).text;
}

export const buildEmbedBrowserScripts = (): EmbedBrowserScripts => ({
  sdk: bundle('embed.ts'),
  bridge: bundle('module-bridge-entry.ts'),
  pages: bundle('module-pages-entry.ts'),
});

/** The esbuild `define` that compiles the scripts into a Lambda bundle (read by `bundledEmbedBrowserScripts`). */
export const embedBrowserScriptDefines = (
  scripts: EmbedBrowserScripts = buildEmbedBrowserScripts(),
): Record<string, string> => ({
  EMBED_SDK_SCRIPT: JSON.stringify(scripts.sdk),
  EMBED_BRIDGE_SCRIPT: JSON.stringify(scripts.bridge),
  EMBED_PAGES_SCRIPT: JSON.stringify(scripts.pages),
});
