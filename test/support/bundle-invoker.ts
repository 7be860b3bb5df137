/**
 * Runs one invocation of a synthesized Lambda bundle in a plain `node` child process, as
 * the Lambda runtime would: a fresh process (a cold start) with only the function's
 * environment, the event in, the handler's result out, every stdout line its log.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The runtime's part: import the bundle, call the named export with the event and a Lambda context, report the result on fd 3. */
const RUNNER = `
import dns from 'node:dns';
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [bundle, exportName, timeoutSeconds, requestId, functionName] = process.argv.slice(2);
// The SQS stand-in names its queues http://sqs.<region>.localhost:<port>/…, and the SDK sends to a queue
// URL's own host: resolve *.localhost to loopback, as an /etc/hosts line would (in AWS the host is real).
const lookup = dns.lookup;
dns.lookup = (name, options, callback) => {
  if (typeof options === 'function') [options, callback] = [{}, options];
  if (!name.endsWith('.localhost')) return lookup(name, options, callback);
  if (options?.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  return callback(null, '127.0.0.1', 4);
};
let input = '';
for await (const chunk of process.stdin) input += chunk;
const deadline = Date.now() + Number(timeoutSeconds) * 1000;
const context = {
  awsRequestId: requestId, functionName, functionVersion: '$LATEST', memoryLimitInMB: '512',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:' + functionName,
  logGroupName: '/aws/lambda/' + functionName, logStreamName: 'bundle-test', callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done() {}, fail() {}, succeed() {},
};
let outcome;
try {
  const handler = (await import(pathToFileURL(bundle).href))[exportName];
  if (typeof handler !== 'function') throw new Error('the bundle exports no function ' + exportName);
  outcome = { result: (await handler(JSON.parse(input), context)) ?? null };
} catch (error) {
  outcome = { error: { name: error?.name, message: error?.message, stack: error?.stack } };
}
writeSync(3, JSON.stringify(outcome));
process.exit(0);
`;

export interface BundleInvocation<R> {
  /** The handler's result; absent when it threw (see `error`). */
  readonly result?: R;
  readonly error?: { name: string; message: string; stack?: string };
  /** stdout lines that are JSON objects: the function's structured log. */
  readonly logs: Record<string, unknown>[];
  readonly stderr: string;
}

/** Writes the runner next to the bundles once; `invoke` runs it per event. */
export function bundleInvoker(outdir: string) {
  const runner = join(outdir, 'invoke-bundle.mjs');
  writeFileSync(runner, RUNNER);
  return async function invoke<R>(
    fn: { name: string; bundle: string; handlerExport: string; timeoutSeconds: number },
    environment: Record<string, string>,
    event: unknown,
  ): Promise<BundleInvocation<R>> {
    const child = spawn(
      process.execPath,
      [runner, fn.bundle, fn.handlerExport, String(fn.timeoutSeconds), randomUUID(), fn.name],
      {
        // Only what Lambda would give: the function's environment, nothing of the test runner's.
        env: { PATH: process.env.PATH ?? '', ...environment },
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      },
    );
    const collect = (stream: NodeJS.ReadableStream | null) => {
      const chunks: Buffer[] = [];
      stream?.on('data', (chunk: Buffer) => chunks.push(chunk));
      return () => Buffer.concat(chunks).toString('utf8');
    };
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    const reported = collect(child.stdio[3] as NodeJS.ReadableStream);
    child.stdin.end(JSON.stringify(event));
    const killer = setTimeout(() => child.kill('SIGKILL'), (fn.timeoutSeconds + 5) * 1000);
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', () => resolve());
    });
    clearTimeout(killer);
    const logs = stdout()
      .split('\n')
      .flatMap((line) => {
        try {
          const parsed: unknown = JSON.parse(line);
          return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      });
    const text = reported();
    if (!text)
      return { error: { name: 'NoResult', message: `${fn.name} exited without a result` }, logs, stderr: stderr() };
    const outcome = JSON.parse(text) as { result?: R; error?: { name: string; message: string } };
    return { ...outcome, logs, stderr: stderr() };
  };
}
