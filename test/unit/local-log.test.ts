import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalLog } from '../../lib/local-runtime/local-log';

const folders: string[] = [];
afterEach(async () => Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))));

async function aLog(echo?: 'errors' | 'all') {
  const folder = await mkdtemp(join(tmpdir(), 'local-log-'));
  folders.push(folder);
  const file = join(folder, 'logs', 'service.jsonl');
  const printed: string[] = [];
  const log = openLocalLog(file, { ...(echo ? { echo } : {}), print: (line) => printed.push(line) });
  log.logger.info({ msg: 'request', route: 'GET /v1/orders' });
  log.logger.error({ msg: 'unhandled error' });
  await log.close();
  const written = (await readFile(file, 'utf8')).trim().split('\n');
  return { printed: printed.map((line) => JSON.parse(line).msg), written: written.map((line) => JSON.parse(line).msg) };
}

describe("npm start's log", () => {
  it('appends every line to the file and prints only errors, so the banner stays on screen', async () => {
    expect(await aLog()).toEqual({ printed: ['unhandled error'], written: ['request', 'unhandled error'] });
  });

  it('prints every line when asked (--verbose, LOG_TO_CONSOLE=1)', async () => {
    expect(await aLog('all')).toEqual({
      printed: ['request', 'unhandled error'],
      written: ['request', 'unhandled error'],
    });
  });
});
