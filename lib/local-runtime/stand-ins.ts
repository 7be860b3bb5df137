import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { chmodSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { buildApp as buildFauxqs } from 'fauxqs';
import sesModule from 'aws-ses-v2-local';
import { startStripeStandIn } from './stripe-stand-in-server';
import type { LocalEndpoints } from '../../functions/adapters/aws-clients';
import { type DynamoDbLocalProcess, startDynamoDbLocal } from './dynamodb-local-process';
import { freePort } from './free-port';
import { requireJava } from './java-requirement';
import { startSecretsManagerStandIn } from './secrets-manager-stand-in';

// A CommonJS module with an ES default export: under Node's ESM loader it arrives wrapped once more.
const startSesStandIn = ((sesModule as unknown as { default?: typeof sesModule }).default ??
  sesModule) as typeof sesModule;

export interface StandIns {
  readonly endpoints: LocalEndpoints;
  /** Base URL of the Stripe stand-in, used with the real `stripe` SDK. */
  readonly stripeApiBase: string;
  readonly dynamodbIsolation: DynamoDbIsolation;
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Persist DynamoDB, Secrets Manager and the Stripe stand-in's invoices here (readable by the owner only); in memory when absent. */
  readonly dataDir?: string;
  /** Where a warning about weaker isolation goes (DynamoDB Local reachable from the network); stderr by default. */
  readonly onWarning?: (message: string) => void;
}

/** How DynamoDB Local is isolated on this machine (dynamodb-local-process.ts). */
type DynamoDbIsolation = DynamoDbLocalProcess['isolation'];

/**
 * Starts every AWS stand-in on loopback (DynamoDB Local as a Java child process, the
 * rest in-process), speaking the real wire protocols so the same SDK code paths run.
 */
export async function startStandIns(options: StandInOptions = {}): Promise<StandIns> {
  requireJava();
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
    if (dataDir) {
      // Partners, keys' hashes, profiles: the owner's only, whatever the umask made of an existing directory.
      mkdirSync(resolve(dataDir, 'dynamodb'), { recursive: true, mode: 0o700 });
      chmodSync(dataDir, 0o700);
      chmodSync(resolve(dataDir, 'dynamodb'), 0o700);
    }

    const dynamo = await startDynamoDbLocal({
      ...(dataDir ? { dbPath: resolve(dataDir, 'dynamodb') } : {}),
      onWarning: options.onWarning ?? ((message) => process.stderr.write(`${message}\n`)),
    });
    // A script that dies without closing (an uncaught error) must not leave a JVM behind
    // holding a port and memory; 'exit' runs even then, and kill() is synchronous. (A
    // SIGKILL skips it: then the kernel's parent-death signal does it, see dynamodb-local-process.ts.)
    const killOnExit = () => dynamo.child.kill('SIGKILL');
    process.once('exit', killOnExit);
    closers.push(async () => {
      process.off('exit', killOnExit);
      await dynamo.stop();
    });
    const dynamodb = dynamo.endpoint;
    await waitForDynamo(dynamodb, dynamo.child);

    const fauxqs = buildFauxqs({ logger: false });
    const sqs = await fauxqs.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => fauxqs.close());

    const sesPort = await freePort();
    const sesServer = await startSesStandIn({ host: '127.0.0.1', port: sesPort });
    closers.push(() => closeServer(sesServer));

    const secrets = await startSecretsManagerStandIn(
      dataDir ? { persistPath: resolve(dataDir, 'secrets-manager.json') } : {},
    );
    closers.push(() => secrets.close());

    const stripe = await startStripeStandIn({
      ...(dataDir ? { dataDir } : {}),
      onWarning: options.onWarning ?? ((message) => process.stderr.write(`${message}\n`)),
    });
    closers.push(() => stripe.close());

    return {
      endpoints: {
        dynamodb,
        sqs: sqs.replace('0.0.0.0', '127.0.0.1'),
        s3: sqs.replace('0.0.0.0', '127.0.0.1'),
        ses: `http://127.0.0.1:${sesPort}`,
        secretsManager: secrets.endpoint,
      },
      stripeApiBase: stripe.url,
      dynamodbIsolation: dynamo.isolation,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function waitForDynamo(endpoint: string, child: ChildProcess): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`DynamoDB Local exited with code ${child.exitCode} (is Java 17+ installed?)`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error('DynamoDB Local did not become ready within 30 s');
  } finally {
    client.destroy();
  }
}

const closeServer = (server: Server): Promise<void> =>
  new Promise((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
