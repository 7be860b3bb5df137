import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const standInsModule = pathToFileURL(resolve('lib/local-runtime/stand-ins.ts')).href;

/** Runs a script that starts the stand-ins, prints DynamoDB Local's URL and then dies of an uncaught error. */
function crashAfterStarting(): Promise<{ code: number | null; stdout: string }> {
  const script = `const { startStandIns } = await import(${JSON.stringify(standInsModule)});
const standIns = await startStandIns();
console.log(standIns.endpoints.dynamodb);
throw new Error('crash before close()');`;
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 60_000 },
      (_error, stdout) => done({ code: child.exitCode, stdout }),
    );
  });
}

const answers = (url: string) =>
  fetch(url, { method: 'POST' }).then(
    () => true,
    () => false,
  );

describe('the local stand-ins', () => {
  it('take DynamoDB Local down with them when the process dies without closing them', async () => {
    const { code, stdout } = await crashAfterStarting();
    const dynamodb = stdout.trim().split('\n').at(-1) as string;
    expect(code).toBe(1);
    expect(dynamodb).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const deadline = Date.now() + 5_000;
    while ((await answers(dynamodb)) && Date.now() < deadline) await sleep(100);
    expect(await answers(dynamodb)).toBe(false);
  });
});
