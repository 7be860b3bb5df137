import type { TestProject } from 'vitest/node';
import { startStandIns } from '../../lib/local-runtime/stand-ins';

/** One set of in-memory stand-ins for the run; each test file isolates itself by resource prefix. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const standIns = await startStandIns();
  project.provide('standIns', { endpoints: standIns.endpoints, stripeApiBase: standIns.stripeApiBase });
  return () => standIns.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    standIns: { endpoints: import('../../functions/adapters/aws-clients').LocalEndpoints; stripeApiBase: string };
  }
}
