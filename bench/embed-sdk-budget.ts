/**
 * The embed SDK script's budget: `GET /sdk/v1/embed.js`, minified (esbuild, in case it is
 * served as written) and gzipped, at most 10 KB (issue 15).
 */
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';

export const EMBED_SDK_PATH = '/sdk/v1/embed.js';
export const EMBED_SDK_BUDGET_KB = 10;

export interface EmbedSdkSize {
  readonly servedKb: number;
  readonly minifiedGzipKb: number;
}

/** The script's sizes as the stack serves it. */
export async function measureEmbedSdkScript(baseUrl: string): Promise<EmbedSdkSize> {
  const response = await fetch(`${baseUrl}${EMBED_SDK_PATH}`);
  const source = await response.text();
  if (response.status !== 200) throw new Error(`${EMBED_SDK_PATH} answered ${response.status}`);
  const { code } = await transform(source, { minify: true, loader: 'js' });
  return { servedKb: Buffer.byteLength(source) / 1024, minifiedGzipKb: gzipSync(code, { level: 9 }).byteLength / 1024 };
}
