import type { BuildOptions } from 'esbuild';
import type { FunctionName } from '../../functions/resources/resource-definitions';

/**
 * How every Lambda handler is bundled: used by the CDK functions and by the bundle
 * benchmark, so the numbers we publish are those of what we deploy.
 */
export const LAMBDA_BUNDLE = {
  target: 'node22',
  minify: true,
  /**
   * Log lines name failures by their error class (`failure: "Unauthorized"`); minified
   * names (`w`, `P`) would make every deployed log line and alarm query useless.
   */
  keepNames: true,
  mainFields: ['module', 'main'],
  // Bundled CommonJS dependencies still call require(); ESM has none of its own.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  /**
   * The Node.js 22 Lambda runtime ships AWS SDK v3; bundling our own copy would put
   * 0.5 MB per client in front of every cold start (docs/decisions.md).
   */
  external: ['@aws-sdk/*', '@smithy/*'],
} as const;

/**
 * Packages a function loads with `import()` on the path of one kind of request only,
 * shipped beside its handler as a bundle of their own (`node_modules/<package>/index.mjs`,
 * which `import('<package>')` finds from `index.mjs`) instead of inside it: code in the
 * handler's file is read and pre-parsed at every cold start even if it never runs (Stripe,
 * 258 KB, cost setup about 14 ms of init that way; docs/performance.md). Setup needs
 * Stripe for a new organization only; the embed host Stripe for checkout's Stripe Tax
 * calculations, the XML parser for the picture route's SVG check and d3-scale for the
 * Spending page's chart.
 */
export const ON_DEMAND_PACKAGES: Readonly<Partial<Record<FunctionName, readonly string[]>>> = {
  setup: ['stripe'],
  embed: ['stripe', '@xmldom/xmldom', 'd3-scale'],
  ordersApi: ['stripe'],
};

/** What esbuild leaves out of a function's handler bundle: the runtime's SDK and the function's on-demand packages. */
export const lambdaExternals = (fn: FunctionName): string[] => [
  ...LAMBDA_BUNDLE.external,
  ...(ON_DEMAND_PACKAGES[fn] ?? []),
];

/**
 * esbuild's options for a function's handler bundle, those NodeFunction gives CDK's esbuild (less the source map):
 * the bundle benchmark and the budget test build with them, so what they measure is what ships.
 */
export const handlerBuildOptions = (fn: FunctionName, define: Readonly<Record<string, string>> = {}): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: LAMBDA_BUNDLE.target,
  minify: LAMBDA_BUNDLE.minify,
  keepNames: LAMBDA_BUNDLE.keepNames,
  mainFields: [...LAMBDA_BUNDLE.mainFields],
  banner: { js: LAMBDA_BUNDLE.banner },
  external: lambdaExternals(fn),
  define: { ...define },
  logLevel: 'error',
});

/** Where an on-demand package goes, relative to the directory of the handler's bundle. */
export const onDemandPackageDir = (pkg: string): string => `node_modules/${pkg}`;

/** The `package.json` that makes `import('<package>')` load the bundle beside it. */
export const ON_DEMAND_PACKAGE_JSON = '{"type":"module","main":"index.mjs"}';

/** esbuild's command-line flags for an on-demand package's bundle, the handler's options but for the entry. */
export function onDemandPackageFlags(pkg: string, outfile: string): string[] {
  return [
    pkg,
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--target=${LAMBDA_BUNDLE.target}`,
    ...(LAMBDA_BUNDLE.minify ? ['--minify'] : []),
    ...(LAMBDA_BUNDLE.keepNames ? ['--keep-names'] : []),
    `--main-fields=${LAMBDA_BUNDLE.mainFields.join(',')}`,
    `--banner:js=${LAMBDA_BUNDLE.banner}`,
    ...LAMBDA_BUNDLE.external.map((e) => `--external:${e}`),
    '--sourcemap',
    '--sources-content=false',
    '--log-level=warning',
    `--outfile=${outfile}`,
  ];
}
