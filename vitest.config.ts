import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
