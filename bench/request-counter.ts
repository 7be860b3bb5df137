/**
 * Every DynamoDB and SQS request the service makes, counted on its clients (a middleware on
 * each client's stack), with the DynamoDB capacity each consumed, to price a delivery at list
 * prices (bench/cost-model.ts). DynamoDB Local reports single-item capacity right and
 * under-counts transactions, which DynamoDB bills at 2 write units per item and KB: each
 * transaction item is counted as 2 units (the service's items are under 1 KB; their index
 * entries are left out, so the write cost is a floor).
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface RequestCount {
  readonly dynamodb: number;
  readonly sqs: number;
  readonly readUnits: number;
  readonly writeUnits: number;
}

export interface RequestCounter {
  /** What was counted since the last `take`, and a fresh count from now. */
  take(): RequestCount;
  stop(): void;
}

const READS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);
let counters = 0;

export function countRequests(clients: { db: DynamoDBDocumentClient; sqs: SQSClient }): RequestCounter {
  const name = `benchRequestCounter${(counters += 1)}`;
  let count = { dynamodb: 0, sqs: 0, readUnits: 0, writeUnits: 0 };
  clients.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      count.dynamodb += 1;
      const result = await next(args);
      const command = context.commandName ?? '';
      const consumed = [
        (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] })
          .ConsumedCapacity ?? [],
      ].flat();
      const reported = consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (READS.has(command)) count.readUnits += reported;
      else if (command === 'TransactWriteItemsCommand')
        count.writeUnits += 2 * ((input.TransactItems as unknown[] | undefined)?.length ?? 0);
      else count.writeUnits += reported;
      return result;
    },
    { step: 'initialize', name, priority: 'high' },
  );
  clients.sqs.middlewareStack.add(
    (next) => async (args) => {
      count.sqs += 1;
      return next(args);
    },
    { step: 'initialize', name, priority: 'high' },
  );
  return {
    take: () => {
      const taken = count;
      count = { dynamodb: 0, sqs: 0, readUnits: 0, writeUnits: 0 };
      return taken;
    },
    stop: () => {
      clients.db.middlewareStack.remove(name);
      clients.sqs.middlewareStack.remove(name);
    },
  };
}
