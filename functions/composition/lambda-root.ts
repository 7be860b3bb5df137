import { loadRuntimeConfig, type RuntimeConfig } from '../config';

/**
 * A Lambda's composition root: reads the environment the stack set and builds the
 * function's dependencies once per cold start, on the first invocation (so importing a
 * handler has no side effects).
 */
export function lambdaRoot<D>(compose: (config: RuntimeConfig) => D): () => Promise<D> {
  let built: Promise<D> | undefined;
  return () => {
    built ??= Promise.resolve().then(() => compose(loadRuntimeConfig(process.env)));
    return built;
  };
}
