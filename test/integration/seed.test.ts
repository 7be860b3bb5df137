import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSandboxPartner } from '../../lib/local-runtime/seed';
import { startTestStack, type TestStack } from '../support/test-stack';

let stack: TestStack;
const dir = mkdtempSync(join(tmpdir(), 'seed-'));
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.close();
});

describe('the seeded sandbox partner of npm start', () => {
  it('reports a key as issued only when it created one; a saved key that still works is reused', async () => {
    const seedFile = join(dir, 'seed.json');
    const first = await seedSandboxPartner(stack.deps, seedFile);
    expect(first.issued).toBe(true);
    const again = await seedSandboxPartner(stack.deps, seedFile);
    expect(again).toEqual({ partnerId: first.partnerId, apiKey: first.apiKey, issued: false });

    // What --reset does: the data (and with it the seed file) is gone.
    rmSync(seedFile);
    const afterReset = await seedSandboxPartner(stack.deps, seedFile);
    expect(afterReset.issued).toBe(true);
    expect(afterReset.apiKey).not.toBe(first.apiKey);
  });
});
