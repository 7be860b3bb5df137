import {
  CreateSecretCommand,
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startSecretsManagerStandIn,
  type SecretsManagerStandIn,
} from '../../lib/local-runtime/secrets-manager-stand-in';

const ARN_PATTERN = /^arn:aws:secretsmanager:us-east-1:000000000000:secret:partner\/api-key-[A-Za-z0-9]{6}$/;

function clientFor(endpoint: string): SecretsManagerClient {
  return new SecretsManagerClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function post(endpoint: string, target: string, body: string): Promise<Response> {
  return fetch(`${endpoint}/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': target },
    body,
  });
}

describe('Secrets Manager stand-in (in memory)', () => {
  let standIn: SecretsManagerStandIn;
  let client: SecretsManagerClient;
  let clock: Date;

  beforeEach(async () => {
    clock = new Date('2025-01-01T00:00:00Z');
    standIn = await startSecretsManagerStandIn({ port: 0, now: () => clock });
    client = clientFor(standIn.endpoint);
  });

  afterEach(async () => {
    client.destroy();
    await standIn.close();
  });

  it('listens on 127.0.0.1 at the endpoint it reports', () => {
    expect(standIn.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('returns a created secret by name and by ARN', async () => {
    const created = await client.send(
      new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 's3cret', Description: 'sandbox key' }),
    );
    expect(created.ARN).toMatch(ARN_PATTERN);
    expect(created.Name).toBe('partner/api-key');
    expect(created.VersionId).toBeTruthy();

    for (const secretId of ['partner/api-key', created.ARN!]) {
      const got = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      expect(got).toMatchObject({
        ARN: created.ARN,
        Name: 'partner/api-key',
        SecretString: 's3cret',
        VersionId: created.VersionId,
        VersionStages: ['AWSCURRENT'],
      });
      expect(got.CreatedDate).toEqual(clock);
    }
  });

  it('uses the ClientRequestToken as the version id', async () => {
    const token = 'a'.repeat(32);
    const created = await client.send(
      new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v1', ClientRequestToken: token }),
    );
    expect(created.VersionId).toBe(token);
  });

  it('makes a put value the new AWSCURRENT version and moves LastChangedDate', async () => {
    const created = await client.send(new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v1' }));
    const createdAt = clock;
    clock = new Date('2025-01-02T00:00:00Z');

    const put = await client.send(new PutSecretValueCommand({ SecretId: 'partner/api-key', SecretString: 'v2' }));
    expect(put.ARN).toBe(created.ARN);
    expect(put.VersionId).toBeTruthy();
    expect(put.VersionId).not.toBe(created.VersionId);
    expect(put.VersionStages).toEqual(['AWSCURRENT']);

    const got = await client.send(new GetSecretValueCommand({ SecretId: created.ARN }));
    expect(got.SecretString).toBe('v2');
    expect(got.VersionId).toBe(put.VersionId);

    const described = await client.send(new DescribeSecretCommand({ SecretId: 'partner/api-key' }));
    expect(described).toMatchObject({ ARN: created.ARN, Name: 'partner/api-key' });
    expect(described.CreatedDate).toEqual(createdAt);
    expect(described.LastChangedDate).toEqual(clock);
    expect(described.VersionIdsToStages).toEqual({ [put.VersionId!]: ['AWSCURRENT'] });
  });

  it('describes a secret with its description', async () => {
    await client.send(
      new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v1', Description: 'sandbox key' }),
    );
    const described = await client.send(new DescribeSecretCommand({ SecretId: 'partner/api-key' }));
    expect(described.Description).toBe('sandbox key');
  });

  it('throws the SDK ResourceNotFoundException for an unknown secret on every operation', async () => {
    const calls: Array<() => Promise<unknown>> = [
      () => client.send(new GetSecretValueCommand({ SecretId: 'nope' })),
      () => client.send(new PutSecretValueCommand({ SecretId: 'nope', SecretString: 'x' })),
      () => client.send(new DescribeSecretCommand({ SecretId: 'nope' })),
    ];
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundException);
      expect((error as ResourceNotFoundException).$metadata.httpStatusCode).toBe(400);
    }
  });

  it('throws the SDK ResourceExistsException when the name is taken', async () => {
    await client.send(new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v1' }));
    const error = await client
      .send(new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v2' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceExistsException);
    const got = await client.send(new GetSecretValueCommand({ SecretId: 'partner/api-key' }));
    expect(got.SecretString).toBe('v1');
  });

  it('answers malformed JSON with a SerializationException and keeps serving', async () => {
    const response = await post(standIn.endpoint, 'secretsmanager.GetSecretValue', '{not json');
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('SerializationException');
    expect(await response.json()).toMatchObject({ __type: 'SerializationException' });

    const nonObject = await post(standIn.endpoint, 'secretsmanager.GetSecretValue', 'null');
    expect(nonObject.status).toBe(400);

    await client.send(new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v1' }));
    const got = await client.send(new GetSecretValueCommand({ SecretId: 'partner/api-key' }));
    expect(got.SecretString).toBe('v1');
  });

  it('answers an unknown operation with UnknownOperationException', async () => {
    const response = await post(standIn.endpoint, 'secretsmanager.RotateSecret', '{}');
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
    expect(await response.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });

  it('answers a request missing a required member with a ValidationException', async () => {
    const response = await post(standIn.endpoint, 'secretsmanager.GetSecretValue', '{}');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'ValidationException' });
  });
});

describe('Secrets Manager stand-in (persisted)', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'secrets-stand-in-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps secrets across a close and restart with the same file', async () => {
    const persistPath = join(dir, 'nested', 'secrets.json');

    const first = await startSecretsManagerStandIn({ persistPath });
    const firstClient = clientFor(first.endpoint);
    const created = await firstClient.send(
      new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v1', Description: 'sandbox key' }),
    );
    const put = await firstClient.send(new PutSecretValueCommand({ SecretId: 'partner/api-key', SecretString: 'v2' }));
    firstClient.destroy();
    await first.close();

    expect(existsSync(persistPath)).toBe(true);
    expect(await readdir(join(dir, 'nested'))).toEqual(['secrets.json']);

    const second = await startSecretsManagerStandIn({ persistPath });
    const secondClient = clientFor(second.endpoint);
    try {
      const got = await secondClient.send(new GetSecretValueCommand({ SecretId: created.ARN }));
      expect(got).toMatchObject({ Name: 'partner/api-key', SecretString: 'v2', VersionId: put.VersionId });
      const described = await secondClient.send(new DescribeSecretCommand({ SecretId: 'partner/api-key' }));
      expect(described.Description).toBe('sandbox key');
      const duplicate = await secondClient
        .send(new CreateSecretCommand({ Name: 'partner/api-key', SecretString: 'v3' }))
        .catch((e: unknown) => e);
      expect(duplicate).toBeInstanceOf(ResourceExistsException);
    } finally {
      secondClient.destroy();
      await second.close();
    }
  });

  it('starts empty when the file does not exist yet', async () => {
    const standIn = await startSecretsManagerStandIn({ persistPath: join(dir, 'absent.json') });
    const client = clientFor(standIn.endpoint);
    try {
      const error = await client
        .send(new GetSecretValueCommand({ SecretId: 'partner/api-key' }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundException);
    } finally {
      client.destroy();
      await standIn.close();
    }
  });
});
