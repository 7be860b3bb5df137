/**
 * `npm run bench`: every figure is measured side by side with its baseline in one run
 * and reported as a ratio against its target.
 */
import { BUNDLE_BUDGET_KB, MAX_BUNDLE_KB, MAX_INIT_RATIO, measureBundles } from './bundle-budget';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
let failures = 0;

console.log('\nLambda bundles (minified ESM, AWS SDK from the runtime) vs. a bundle of only the SDK clients each uses');
const bundles = await measureBundles();
console.table(
  bundles.map((b) => {
    const budget = BUNDLE_BUDGET_KB[b.fn] ?? MAX_BUNDLE_KB;
    const initRatio = b.initMs / b.baselineInitMs;
    const ok = b.sizeKb <= budget && initRatio <= MAX_INIT_RATIO;
    if (!ok) failures += 1;
    return {
      function: b.fn,
      'size KB': b.sizeKb.toFixed(1),
      'budget KB': budget,
      'init ms': b.initMs.toFixed(1),
      'baseline init ms': b.baselineInitMs.toFixed(1),
      'init ratio': `${initRatio.toFixed(2)}x (<= ${MAX_INIT_RATIO}x)`,
      target: verdict(ok),
    };
  }),
);

console.log(failures ? `\n${failures} target(s) missed` : '\nAll targets hold');
