import { defineConfig } from 'vitest/config';
import SlowestFilesFirst from './test/support/slowest-files-first.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Most files wait on DynamoDB Local, sockets and Chromium rather than compute, so one worker per core
    // (vitest's default is one fewer: a single worker, run serially, on CI's 2 cores).
    maxWorkers: '100%',
    // A worker evaluates the shared modules (the SDK clients, the test stack, the handlers) once, not once per file:
    // about a quarter less time on 2 cores. The files share no module state: each test stack has its own tables,
    // queues and clock, and the few that fake timers restore them.
    isolate: false,
    sequence: { sequencer: SlowestFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
