/**
 * `npm start` (bin/local.ts) as a child process in a working directory of the test's
 * choosing, so its `.local/` data directory is the test's own and never the developer's.
 * It runs the way `npm start` runs it (`tsx bin/local.ts`: node with tsx's loader), in
 * its own process group so a failing test can still stop it and its DynamoDB Local JVM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export interface LocalProcess {
  readonly url: string;
  readonly partnerId: string;
  readonly apiKey: string;
  readonly output: () => string;
  /** Ctrl-C in a terminal: SIGINT to the whole process group; resolves with the exit code. */
  interrupt(timeoutMs?: number): Promise<number | null>;
  /** Last resort for a failed test: SIGKILL to the group. */
  kill(): void;
  /** A power cut: SIGKILL to the group (no shutdown code runs); resolves once the process is gone. */
  crash(): Promise<void>;
}

export async function startLocalProcess(options: {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<LocalProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', pathToFileURL(resolve(REPO, 'node_modules/tsx/dist/loader.mjs')).href, resolve(REPO, 'bin/local.ts')],
    {
      cwd: options.cwd,
      env: { ...process.env, PORT: '0', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...options.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };

  const banner = await new Promise<RegExpExecArray>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm start did not come up in time:\n${output}`)),
      options.timeoutMs ?? 45_000,
    );
    const check = () => {
      const match =
        /listening on (http:\/\/localhost:\d+)[\s\S]*partner id:\s+(\S+)[\s\S]*API key:\s+(sk_test_[0-9a-f]{64})[\s\S]*Ctrl-C to stop/.exec(
          output,
        );
      if (match) {
        clearTimeout(timer);
        done(match);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited with ${code}:\n${output}`));
    });
  }).catch((error: unknown) => {
    kill();
    throw error;
  });

  return {
    url: banner[1] as string,
    partnerId: banner[2] as string,
    apiKey: banner[3] as string,
    output: () => output,
    async interrupt(timeoutMs = 20_000) {
      if (child.pid) process.kill(-child.pid, 'SIGINT');
      const timer = setTimeout(kill, timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    kill,
    async crash() {
      kill();
      await exited;
    },
  };
}
