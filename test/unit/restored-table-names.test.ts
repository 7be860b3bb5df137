import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from '../../functions/config';
import { catalogRepository } from '../../functions/composition/repositories';
import { functionEnvironment } from '../../functions/resources/function-environment';
import { ENVIRONMENTS, type EnvironmentConfig } from '../../functions/resources/stages';

/**
 * Issue 44, item 3: the functions (and the operator CLI, which configures itself with the same
 * `functionEnvironment` as the stack: lib/ops-cli/ops-target.ts) find a restored table by the
 * name the stage's `restoredTables` gives it.
 */
const queueUrls = { orderEvents: 'q1', webhookDeliveries: 'q2', webhookSlowDeliveries: 'q3', invoicing: 'q4' };
const restored: EnvironmentConfig = {
  ...ENVIRONMENTS.production,
  restoredTables: { catalog: { tableName: 'embed-production-catalog-r20261128' } },
};

/** A DynamoDB client that records the table of each command and answers with nothing. */
const recordingClient = () => {
  const tables: string[] = [];
  const db = {
    send: async (command: { input: { TableName?: string } }) => {
      tables.push(command.input.TableName ?? '');
      return { Items: [] };
    },
  } as unknown as DynamoDBDocumentClient;
  return { db, tables };
};

describe('table names in the runtime configuration', () => {
  it('names the restored table where the stage has one, and its own table elsewhere', () => {
    const config = loadRuntimeConfig(functionEnvironment(restored, { queueUrls }));
    expect(config).toMatchObject({
      CATALOG_TABLE: 'embed-production-catalog-r20261128',
      ORDERS_TABLE: 'embed-production-orders',
      PARTNERS_TABLE: 'embed-production-partners',
    });
  });

  it('reads and writes the restored table through the repositories', async () => {
    const config = loadRuntimeConfig(functionEnvironment(restored, { queueUrls }));
    const { db, tables } = recordingClient();
    await catalogRepository({ config, db }).listAll();
    expect(tables).toEqual(['embed-production-catalog-r20261128']);
  });

  it('keeps a stack with its own prefix (npm start, tests) on its own tables, whatever the stage restored', () => {
    const config = loadRuntimeConfig(functionEnvironment(restored, { queueUrls, resourcePrefix: 'local-1' }));
    expect(config.CATALOG_TABLE).toBe('local-1-catalog');
  });

  it('falls back to the prefix for a table an environment leaves unnamed', async () => {
    const { db, tables } = recordingClient();
    await catalogRepository({ config: { RESOURCE_PREFIX: 'embed-sandbox' }, db }).listAll();
    expect(tables).toEqual(['embed-sandbox-catalog']);
  });
});
