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
