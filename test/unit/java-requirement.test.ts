import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('npm start without Java', () => {
  it('exits 1 with a one-line hint instead of a stack trace', () => {
    const repository = resolve(import.meta.dirname, '../..');
    const tsx = pathToFileURL(join(repository, 'node_modules/tsx/dist/loader.mjs')).href;
    // A PATH with no java on it; the cwd is a scratch directory, so `.local/` is written there.
    const run = spawnSync(process.execPath, ['--import', tsx, join(repository, 'bin/local.ts')], {
      cwd: mkdtempSync(join(tmpdir(), 'no-java-')),
      env: { PATH: '/nonexistent', HOME: tmpdir() },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^npm start: Java 17\+ is required for DynamoDB Local .*openjdk-17-jre-headless/);
  }, 60_000);
});
