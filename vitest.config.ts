import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Most files wait on DynamoDB Local, sockets and Chromium rather than compute, so one worker per core
    // (vitest's default is one fewer: a single worker, run serially, on CI's 2 cores).
    maxWorkers: '100%',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
