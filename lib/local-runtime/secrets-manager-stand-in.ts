// Project-owned AWS Secrets Manager stand-in for the local runtime and tests: no npm package exists.
// It speaks the AWS JSON 1.1 protocol so the real @aws-sdk/client-secrets-manager code paths run unchanged.
// Deliberately minimal: SecretString only, one version per secret (AWSCURRENT; no AWSPREVIOUS history),
// lookup by name or full ARN. Anything outside that fails loudly rather than pretending to work.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { z } from 'zod';

export interface SecretsManagerStandInOptions {
  port?: number;
  /** JSON file holding all secrets; omit to keep everything in memory. */
  persistPath?: string;
  /** Injected so tests can observe LastChangedDate moving without sleeping. */
  now?: () => Date;
}

export interface SecretsManagerStandIn {
  endpoint: string;
  close(): Promise<void>;
}

const REGION = 'us-east-1';
const ACCOUNT_ID = '000000000000';
const CURRENT_STAGE = 'AWSCURRENT';
const JSON_1_1 = 'application/x-amz-json-1.1';

const StoredVersion = z.object({
  versionId: z.string(),
  secretString: z.string(),
  createdDate: z.number(),
});
const StoredSecret = z.object({
  arn: z.string(),
  name: z.string(),
  description: z.string().optional(),
  createdDate: z.number(),
  lastChangedDate: z.number(),
  current: StoredVersion.optional(),
});
const StoredState = z.object({ secrets: z.array(StoredSecret) });
type StoredVersion = z.infer<typeof StoredVersion>;
type StoredSecret = z.infer<typeof StoredSecret>;

// Unknown members (Tags, KmsKeyId, ...) are stripped by zod and ignored; SecretBinary is rejected explicitly.
const SecretName = z.string().regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, 'invalid secret name');
const CreateSecretRequest = z.object({
  Name: SecretName,
  SecretString: z.string().optional(),
  SecretBinary: z.unknown().optional(),
  Description: z.string().optional(),
  ClientRequestToken: z.string().optional(),
});
const GetSecretValueRequest = z.object({
  SecretId: z.string(),
  VersionId: z.string().optional(),
  VersionStage: z.string().optional(),
});
const PutSecretValueRequest = z.object({
  SecretId: z.string(),
  SecretString: z.string().optional(),
  SecretBinary: z.unknown().optional(),
  ClientRequestToken: z.string().optional(),
});
const DescribeSecretRequest = z.object({ SecretId: z.string() });
const DeleteSecretRequest = z.object({ SecretId: z.string(), ForceDeleteWithoutRecovery: z.boolean().optional() });

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const notFound = () =>
  new ServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
const binaryUnsupported = () =>
  new ServiceError(
    'InvalidParameterException',
    'SecretBinary is not supported by the local stand-in; use SecretString.',
  );

function parseRequest<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ServiceError('ValidationException', z.prettifyError(result.error));
  return result.data;
}

const ARN_SUFFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function newArn(name: string): string {
  const suffix = Array.from(randomBytes(6), (b) => ARN_SUFFIX_ALPHABET[b % ARN_SUFFIX_ALPHABET.length]).join('');
  return `arn:aws:secretsmanager:${REGION}:${ACCOUNT_ID}:secret:${name}-${suffix}`;
}

async function loadState(persistPath: string | undefined): Promise<Map<string, StoredSecret>> {
  const secrets = new Map<string, StoredSecret>();
  if (!persistPath) return secrets;
  let raw: string;
  try {
    raw = await readFile(persistPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return secrets;
    throw error;
  }
  // A corrupt file fails the start instead of silently starting empty and overwriting it on the next write.
  const state = StoredState.parse(JSON.parse(raw));
  for (const secret of state.secrets) secrets.set(secret.name, secret);
  return secrets;
}

export async function startSecretsManagerStandIn(
  options: SecretsManagerStandInOptions = {},
): Promise<SecretsManagerStandIn> {
  const { persistPath } = options;
  const now = options.now ?? (() => new Date());
  const epochSeconds = () => now().getTime() / 1000;
  const secrets = await loadState(persistPath);

  // Writes are chained so renames land in mutation order; each write snapshots the state at the time it runs.
  let pendingWrite: Promise<void> = Promise.resolve();
  function persist(): Promise<void> {
    if (!persistPath) return Promise.resolve();
    const write = pendingWrite.then(async () => {
      const tempPath = `${persistPath}.${process.pid}.tmp`;
      const state: z.infer<typeof StoredState> = { secrets: [...secrets.values()] };
      await mkdir(dirname(persistPath), { recursive: true });
      await writeFile(tempPath, JSON.stringify(state, null, 2), { mode: 0o600 });
      await rename(tempPath, persistPath);
    });
    pendingWrite = write.catch(() => undefined);
    return write;
  }

  function find(secretId: string): StoredSecret {
    const secret = secrets.get(secretId) ?? [...secrets.values()].find((s) => s.arn === secretId);
    if (!secret) throw notFound();
    return secret;
  }

  const operations: Record<string, (body: unknown) => Promise<object>> = {
    async CreateSecret(body) {
      const req = parseRequest(CreateSecretRequest, body);
      if (req.SecretBinary !== undefined) throw binaryUnsupported();
      const existing = secrets.get(req.Name);
      if (existing) {
        // The SDK fills ClientRequestToken itself and reuses it on retries, so a retried create must succeed.
        const isRetry =
          req.ClientRequestToken !== undefined &&
          existing.current?.versionId === req.ClientRequestToken &&
          existing.current.secretString === req.SecretString;
        if (!isRetry) {
          throw new ServiceError(
            'ResourceExistsException',
            `The operation failed because the secret ${req.Name} already exists.`,
          );
        }
        return { ARN: existing.arn, Name: existing.name, VersionId: existing.current?.versionId };
      }
      const at = epochSeconds();
      const current: StoredVersion | undefined =
        req.SecretString === undefined
          ? undefined
          : { versionId: req.ClientRequestToken ?? randomUUID(), secretString: req.SecretString, createdDate: at };
      const secret: StoredSecret = {
        arn: newArn(req.Name),
        name: req.Name,
        description: req.Description,
        createdDate: at,
        lastChangedDate: at,
        current,
      };
      secrets.set(secret.name, secret);
      await persist();
      return { ARN: secret.arn, Name: secret.name, VersionId: current?.versionId };
    },

    async GetSecretValue(body) {
      const req = parseRequest(GetSecretValueRequest, body);
      const secret = find(req.SecretId);
      const version = secret.current;
      // Only AWSCURRENT is kept, so asking for any other version must not silently return the current one.
      if (
        !version ||
        (req.VersionId !== undefined && req.VersionId !== version.versionId) ||
        (req.VersionStage !== undefined && req.VersionStage !== CURRENT_STAGE)
      ) {
        throw new ServiceError(
          'ResourceNotFoundException',
          "Secrets Manager can't find the specified secret value for the requested version.",
        );
      }
      return {
        ARN: secret.arn,
        Name: secret.name,
        VersionId: version.versionId,
        SecretString: version.secretString,
        VersionStages: [CURRENT_STAGE],
        CreatedDate: version.createdDate,
      };
    },

    async PutSecretValue(body) {
      const req = parseRequest(PutSecretValueRequest, body);
      const secret = find(req.SecretId);
      if (req.SecretBinary !== undefined) throw binaryUnsupported();
      if (req.SecretString === undefined) {
        throw new ServiceError('InvalidParameterException', 'You must provide SecretString.');
      }
      const reply = (version: StoredVersion) => ({
        ARN: secret.arn,
        Name: secret.name,
        VersionId: version.versionId,
        VersionStages: [CURRENT_STAGE],
      });
      // Same token as the current version: a retry (same value) is a no-op, a different value is a conflict, as in AWS.
      if (req.ClientRequestToken !== undefined && secret.current?.versionId === req.ClientRequestToken) {
        if (secret.current.secretString === req.SecretString) return reply(secret.current);
        throw new ServiceError(
          'ResourceExistsException',
          'A version with this ClientRequestToken already exists with a different value.',
        );
      }
      const at = epochSeconds();
      const version: StoredVersion = {
        versionId: req.ClientRequestToken ?? randomUUID(),
        secretString: req.SecretString,
        createdDate: at,
      };
      secret.current = version;
      secret.lastChangedDate = at;
      await persist();
      return reply(version);
    },

    // Deleted at once whatever the recovery window asked for: the stand-in keeps no deleted secrets.
    async DeleteSecret(body) {
      const req = parseRequest(DeleteSecretRequest, body);
      const secret = find(req.SecretId);
      secrets.delete(secret.name);
      await persist();
      return { ARN: secret.arn, Name: secret.name, DeletionDate: epochSeconds() };
    },

    async DescribeSecret(body) {
      const req = parseRequest(DescribeSecretRequest, body);
      const secret = find(req.SecretId);
      return {
        ARN: secret.arn,
        Name: secret.name,
        Description: secret.description,
        CreatedDate: secret.createdDate,
        LastChangedDate: secret.lastChangedDate,
        VersionIdsToStages: secret.current ? { [secret.current.versionId]: [CURRENT_STAGE] } : {},
      };
    },
  };

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: ServerResponse, status: number, body: object, errorType?: string): void {
    const headers: Record<string, string> = { 'Content-Type': JSON_1_1, 'x-amzn-RequestId': randomUUID() };
    // The SDK reads the error code from the body's __type first, then this header; both are set like AWS does.
    if (errorType) headers['x-amzn-ErrorType'] = errorType;
    const payload = JSON.stringify(body);
    res.writeHead(status, headers).end(payload);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const raw = await readBody(req);
      const target = req.headers['x-amz-target'];
      const name = typeof target === 'string' && target.startsWith('secretsmanager.') ? target.slice(15) : undefined;
      const operation = req.method === 'POST' && name && Object.hasOwn(operations, name) ? operations[name] : undefined;
      if (!operation) throw new ServiceError('UnknownOperationException', `Unknown operation ${String(target)}`);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new ServiceError('SerializationException', 'Request body is not valid JSON.');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ServiceError('SerializationException', 'Request body must be a JSON object.');
      }
      send(res, 200, await operation(body));
    } catch (error) {
      const serviceError =
        error instanceof ServiceError ? error : new ServiceError('InternalServiceError', 'Internal error.', 500);
      send(res, serviceError.status, { __type: serviceError.type, message: serviceError.message }, serviceError.type);
    }
  }

  // Last line of defence: a failure while answering (e.g. the client went away) must never crash the process.
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // SDK clients keep sockets alive; without this close() waits for them to time out.
        server.closeAllConnections();
      });
      await pendingWrite;
    },
  };
}
