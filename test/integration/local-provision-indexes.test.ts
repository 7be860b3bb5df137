/**
 * `npm start` keeps its tables in `.local/` across restarts: a table created before an
 * index was defined (the webhooks table before gsi2) gets that index when the stack
 * starts again, as a deploy adds it, so the query that needs it works on old data too.
 */
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createAwsClients } from '../../functions/adapters/aws-clients';
import { tableName } from '../../functions/resources/resource-definitions';
import { provisionLocalResources } from '../../lib/local-runtime/provision';

const aws = createAwsClients(inject('standIns').endpoints);
const db = aws.db as unknown as DynamoDBClient;

describe('provisioning the local stack again', () => {
  it('adds the global indexes defined since a kept table was created', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const webhooks = tableName(prefix, 'webhooks');
    // The webhooks table as an earlier version created it: gsi1 only.
    await db.send(
      new CreateTableCommand({
        TableName: webhooks,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((AttributeName) => ({
          AttributeName,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );

    await provisionLocalResources(aws, prefix);
    const { Table } = await db.send(new DescribeTableCommand({ TableName: webhooks }));
    expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(['gsi1', 'gsi2']);

    // A second start finds nothing to add.
    await provisionLocalResources(aws, prefix);
  });
});
