import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { buildEmbedBrowserScripts, embedBrowserScriptDefines } from '../lib/browser-bundling/embed-browser-scripts';
import {
  handlerBuildOptions,
  LAMBDA_BUNDLE,
  ON_DEMAND_PACKAGE_JSON,
  ON_DEMAND_PACKAGES,
  onDemandPackageDir,
  onDemandPackageFlags,
} from '../lib/infrastructure/bundling';
import { FUNCTION_ENTRIES, type FunctionName } from '../functions/resources/resource-definitions';
import { median } from './util';

/**
 * The client class of each AWS SDK package a handler may import. A function's baseline bundle builds one client of
 * each package its own bundle imports at init (read from esbuild's metafile, so the baseline cannot fall behind the
 * function: a hand-kept list had left ordersApi's Secrets Manager and SQS, and the invoicing functions' SQS, on its
 * side of the ratio). Every function on DynamoDB uses it through the document client (`@aws-sdk/lib-dynamodb`, part
 * of AWS SDK v3 and external like the clients), so its baseline builds one too (docs/decisions.md).
 */
const SDK_CLIENT_CLASSES: Readonly<Record<string, string>> = {
  '@aws-sdk/client-dynamodb': 'DynamoDBClient',
  '@aws-sdk/client-s3': 'S3Client',
  '@aws-sdk/client-secrets-manager': 'SecretsManagerClient',
  '@aws-sdk/client-sesv2': 'SESv2Client',
  '@aws-sdk/client-sqs': 'SQSClient',
};

/** The SDK client packages a bundle imports at init (static imports; an `import()` loads on demand). */
function sdkClientsImported(metafile: Metafile): { pkg: string; client: string }[] {
  const pkgs = new Set<string>();
  for (const input of Object.values(metafile.inputs))
    for (const imported of input.imports)
      if (imported.external && imported.kind === 'import-statement' && imported.path.startsWith('@aws-sdk/client-'))
        pkgs.add(imported.path);
  return [...pkgs].sort().map((pkg) => {
    const client = SDK_CLIENT_CLASSES[pkg];
    if (!client) throw new Error(`bench/bundle-budget.ts: name the client class of ${pkg} in SDK_CLIENT_CLASSES`);
    return { pkg, client };
  });
}

/** The embed SDK partners' pages download, minified and gzipped (issue 12); a test holds it too. */
export const EMBED_SDK_BUDGET_GZIP_KB = 10;
/** Each function's init against a bundle of only its SDK clients (docs/performance.md). */
export const MAX_INIT_RATIO = 1.3;

export interface BundleResult {
  readonly fn: FunctionName;
  readonly sizeKb: number;
  readonly baselineSizeKb: number;
  /** The on-demand packages shipped beside the bundle (bundling.ts), loaded by the requests that need them, not at init. */
  readonly onDemand: readonly { pkg: string; sizeKb: number }[];
  readonly initMs: number;
  readonly baselineInitMs: number;
  /** The median of each run's own ratio: a run of the baseline and one of the bundle, back to back, see the same machine. */
  readonly initRatio: number;
}

// Inside the repository, so the externalized SDK resolves from node_modules as on Lambda's runtime.
const outDir = resolve('.local/bench/bundles');

/** Minified and gzipped KB of the SDK and of the module bridge, as the embed host serves them. */
export function measureEmbedBrowserScripts(): { script: 'sdk' | 'bridge'; minifiedKb: number; gzipKb: number }[] {
  const scripts = buildEmbedBrowserScripts();
  return (['sdk', 'bridge'] as const).map((script) => ({
    script,
    minifiedKb: Buffer.byteLength(scripts[script]) / 1024,
    gzipKb: gzipSync(scripts[script]).length / 1024,
  }));
}

/** The function's handler bundle as the stack builds it (the embed function carries the SDK and the bridge). */
async function bundle(fn: FunctionName, outfile: string): Promise<{ sizeKb: number; metafile: Metafile }> {
  const { metafile } = await build({
    ...handlerBuildOptions(fn, fn === 'embed' ? embedBrowserScriptDefines() : {}),
    entryPoints: [resolve(FUNCTION_ENTRIES[fn])],
    outfile,
    metafile: true,
  });
  return { sizeKb: statSync(outfile).size / 1024, metafile };
}

/** A bundle of only the function's SDK clients, with the same options. */
async function bundleBaseline(fn: FunctionName, entry: string, outfile: string): Promise<number> {
  await build({ ...handlerBuildOptions(fn), external: [...LAMBDA_BUNDLE.external], entryPoints: [entry], outfile });
  return statSync(outfile).size / 1024;
}

/** As the stack ships it: the package bundled on its own by the same esbuild command, beside the function's bundle. */
function bundleOnDemandPackage(pkg: string): number {
  const dir = join(outDir, onDemandPackageDir(pkg));
  execFileSync('npx', ['--no-install', 'esbuild', ...onDemandPackageFlags(pkg, join(dir, 'index.mjs'))], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(join(dir, 'package.json'), `${ON_DEMAND_PACKAGE_JSON}\n`);
  return statSync(join(dir, 'index.mjs')).size / 1024;
}

/** Milliseconds a fresh `node` process spends importing the module (median of runs, alternated with the baseline). */
function importMs(file: string): number {
  const script = `const s=process.hrtime.bigint();await import(${JSON.stringify(pathToFileURL(file).href)});process.stdout.write(String(Number(process.hrtime.bigint()-s)/1e6))`;
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    }),
  );
}

function baselineClient(pkg: string, client: string, i: number): string {
  const plain = `import { ${client} as C${i} } from '${pkg}';\n`;
  return pkg === '@aws-sdk/client-dynamodb'
    ? `${plain}import { DynamoDBDocumentClient as D${i} } from '@aws-sdk/lib-dynamodb';\nexport const c${i} = D${i}.from(new C${i}({}));`
    : `${plain}export const c${i} = new C${i}({});`;
}

export async function measureBundles(runs = 15): Promise<BundleResult[]> {
  mkdirSync(outDir, { recursive: true });
  const results: BundleResult[] = [];
  for (const fn of Object.keys(FUNCTION_ENTRIES) as FunctionName[]) {
    const bundleFile = join(outDir, `${fn}.mjs`);
    const baselineEntry = join(outDir, `${fn}-baseline-entry.ts`);
    const baselineFile = join(outDir, `${fn}-baseline.mjs`);
    const { sizeKb, metafile } = await bundle(fn, bundleFile);
    writeFileSync(
      baselineEntry,
      sdkClientsImported(metafile)
        .map(({ pkg, client }, i) => baselineClient(pkg, client, i))
        .join('\n'),
    );
    const onDemand = (ON_DEMAND_PACKAGES[fn] ?? []).map((pkg) => ({ pkg, sizeKb: bundleOnDemandPackage(pkg) }));
    const baselineSizeKb = await bundleBaseline(fn, baselineEntry, baselineFile);
    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      base.push(importMs(baselineFile));
      ours.push(importMs(bundleFile));
    }
    const ratios = ours.map((ms, i) => ms / (base[i] as number));
    results.push({
      fn,
      sizeKb,
      baselineSizeKb,
      onDemand,
      initMs: median(ours),
      baselineInitMs: median(base),
      initRatio: median(ratios),
    });
  }
  return results;
}
