/**
 * DynamoDB Local holds every partner's data of a developer's stack and has no
 * authentication: reachable from this machine's loopback only, its files readable by
 * the owner only, and gone when `npm start` goes, however it went (SIGKILL included).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parentDeathSignalAvailable, privateNetworkAvailable } from '../../lib/local-runtime/dynamodb-local-process';

const standInsModule = pathToFileURL(resolve('lib/local-runtime/stand-ins.ts')).href;

interface Started {
  readonly endpoint: string;
  readonly pid: number;
  readonly isolation: { loopbackOnly: boolean; diesWithParent: boolean };
}

let child: ChildProcess;
let started: Started;
let stderr = '';
const dataDir = join(mkdtempSync(join(tmpdir(), 'stand-ins-')), '.local');

/** `npm start`'s part: stand-ins persisting into a `.local` the test owns, then waiting to be killed. */
beforeAll(async () => {
  const script = `const { startStandIns } = await import(${JSON.stringify(standInsModule)});
const standIns = await startStandIns({ dataDir: process.argv[1] });
console.log(JSON.stringify({ endpoint: standIns.endpoints.dynamodb, pid: process.pid, isolation: standIns.dynamodbIsolation }));
setInterval(() => undefined, 60_000);`;
  child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, '--', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  started = await new Promise<Started>((done, fail) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (line) done(JSON.parse(line) as Started);
    });
    child.once('exit', (code) => fail(new Error(`stand-ins exited with ${code}: ${stderr}`)));
  });
}, 60_000);

afterAll(() => {
  // Whatever a failed test left: the processes below the stand-ins, then the stand-ins.
  for (const pid of descendants(started?.pid ?? -1)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(resolve(dataDir, '..'), { recursive: true, force: true });
});

/** The processes below `pid`, from /proc (children first found through their parent's pid). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [candidate, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(candidate);
      visit(candidate);
    }
  };
  visit(pid);
  return found;
}

const commandLine = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};
const theJvm = (): number | undefined =>
  descendants(started.pid).find((pid) => commandLine(pid).some((arg) => arg.endsWith('DynamoDBLocal.jar')));

const refused = (host: string, port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => (socket.destroy(), done(false)));
    socket.once('timeout', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(true));
  });

const otherAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && !address.internal && address.family === 'IPv4')
    .map((address) => address!.address);

describe('DynamoDB Local on a developer machine', () => {
  it.runIf(privateNetworkAvailable())(
    'runs in a network namespace of its own, reachable only through 127.0.0.1',
    async () => {
      expect(started.isolation.loopbackOnly).toBe(true);
      expect(started.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const jvm = theJvm();
      expect(jvm, 'the DynamoDB Local JVM').toBeDefined();
      expect(readlinkSync(`/proc/${jvm}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));

      const args = commandLine(jvm!);
      const jvmPort = Number(args[args.indexOf('-port') + 1]);
      const endpointPort = Number(new URL(started.endpoint).port);
      for (const address of otherAddresses()) {
        expect(await refused(address, jvmPort), `${address}:${jvmPort} (the JVM's port)`).toBe(true);
        expect(await refused(address, endpointPort), `${address}:${endpointPort} (the endpoint's port)`).toBe(true);
      }
      expect(args).toContain('-disableTelemetry');
    },
  );

  it.runIf(!privateNetworkAvailable())(
    'says which port to firewall where this machine allows no private network',
    () => {
      expect(started.isolation.loopbackOnly).toBe(false);
      expect(stderr).toMatch(/DynamoDB Local listens on every interface .* block TCP port \d+/);
    },
  );

  it('keeps its data readable by the owner only', async () => {
    const db = new DynamoDBClient({
      endpoint: started.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await db.send(
      new CreateTableCommand({
        TableName: 'isolation-probe',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    db.destroy();
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect(mode(dataDir)).toBe('700');
    expect(mode(join(dataDir, 'dynamodb'))).toBe('700');
    const files = readdirSync(join(dataDir, 'dynamodb'));
    expect(files.length).toBeGreaterThan(0);
    if (started.isolation.loopbackOnly)
      for (const file of files) expect(mode(join(dataDir, 'dynamodb', file)), file).toBe('600');
  });

  it.runIf(parentDeathSignalAvailable())('does not outlive a SIGKILL of the process that started it', async () => {
    expect(started.isolation.diesWithParent).toBe(true);
    const family = descendants(started.pid);
    expect(family.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    const alive = () =>
      family.filter((pid) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '));
    const deadline = Date.now() + 10_000;
    while (alive().length > 0 && Date.now() < deadline) await sleep(100);
    expect(alive()).toEqual([]);
  });
});
