import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  deadLetterQueueName,
  productImagesBucketName,
  QUEUES,
  type QueueName,
  queueName,
  type TableDefinition,
  TABLES,
  tableName,
} from '../../functions/resources/resource-definitions';

/** Creates on the stand-ins the tables, queues and picture bucket the CDK stack defines, from the same definition. */
export async function provisionLocalResources(
  clients: { db: DynamoDBDocumentClient; sqs: SQSClient; s3: S3Client },
  prefix: string,
): Promise<Record<QueueName, string>> {
  // CreateBucket is idempotent on fauxqs (which keeps objects in memory only: the seed writes the pictures again at every start).
  await clients.s3.send(new CreateBucketCommand({ Bucket: productImagesBucketName(prefix) }));
  await Promise.all(
    Object.entries(TABLES).map(([name, definition]) =>
      createTable(clients.db as unknown as DynamoDBClient, tableName(prefix, name as keyof typeof TABLES), definition),
    ),
  );
  const urls = {} as Record<QueueName, string>;
  for (const [name, definition] of Object.entries(QUEUES) as [QueueName, (typeof QUEUES)[QueueName]][]) {
    const dlq = await clients.sqs.send(new CreateQueueCommand({ QueueName: deadLetterQueueName(prefix, name) }));
    const { Attributes } = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const queue = await clients.sqs.send(
      new CreateQueueCommand({
        QueueName: queueName(prefix, name),
        Attributes: {
          VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: Attributes?.QueueArn,
            maxReceiveCount: definition.maxReceiveCount,
          }),
        },
      }),
    );
    urls[name] = queue.QueueUrl as string;
  }
  return urls;
}

async function createTable(db: DynamoDBClient, name: string, definition: TableDefinition): Promise<void> {
  const keys = [
    definition.partitionKey,
    definition.sortKey,
    ...definition.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ].filter((k): k is string => Boolean(k));
  const input: CreateTableCommandInput = {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...new Set(keys)].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: definition.partitionKey, KeyType: 'HASH' },
      ...(definition.sortKey ? [{ AttributeName: definition.sortKey, KeyType: 'RANGE' as const }] : []),
    ],
    ...(definition.globalIndexes.length
      ? {
          GlobalSecondaryIndexes: definition.globalIndexes.map((index) => ({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          })),
        }
      : {}),
    ...(definition.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: definition.stream } } : {}),
  };
  try {
    await db.send(new CreateTableCommand(input));
  } catch (error) {
    // Kept from an earlier run (`.local/` survives a restart): it gets the indexes defined since, as the stack would.
    if (error instanceof ResourceInUseException) return addMissingIndexes(db, name, input);
    throw error;
  }
  if (definition.ttlAttribute) {
    // Accepted but not enforced by DynamoDB Local: code checks expiry itself (docs/architecture.md, "Expiry").
    await db.send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: definition.ttlAttribute, Enabled: true },
      }),
    );
  }
}

/** Adds the global indexes a table kept from an earlier run lacks, one at a time as DynamoDB requires. */
async function addMissingIndexes(db: DynamoDBClient, name: string, input: CreateTableCommandInput): Promise<void> {
  const { Table } = await db.send(new DescribeTableCommand({ TableName: name }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    if (present.has(index.IndexName)) continue;
    await db.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [
          { Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } },
        ],
      }),
    );
  }
}
