/**
 * The scripts the embed host serves to browsers: the partner's SDK, the module's bridge
 * and the module pages' own script (apply on change, checkout's totals), each a minified ES module bundled from `functions/embed-sdk/`. In a Lambda
 * they are compiled into the bundle (esbuild `define`, see lib/browser-bundling/); the
 * local runtime and tests build them when they start.
 */
export interface EmbedBrowserScripts {
  readonly sdk: string;
  readonly bridge: string;
  readonly pages: string;
}

declare const EMBED_SDK_SCRIPT: string;
declare const EMBED_BRIDGE_SCRIPT: string;
declare const EMBED_PAGES_SCRIPT: string;

/** The scripts compiled into this bundle, or undefined when running from source. */
export const bundledEmbedBrowserScripts = (): EmbedBrowserScripts | undefined =>
  typeof EMBED_SDK_SCRIPT === 'string' &&
  typeof EMBED_BRIDGE_SCRIPT === 'string' &&
  typeof EMBED_PAGES_SCRIPT === 'string'
    ? { sdk: EMBED_SDK_SCRIPT, bridge: EMBED_BRIDGE_SCRIPT, pages: EMBED_PAGES_SCRIPT }
    : undefined;
