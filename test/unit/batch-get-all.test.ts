import type { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { batchGetAll } from '../../functions/adapters/dynamodb/batch-get-all';

type Key = { pk: string };

/**
 * A DynamoDB that holds the items `pk-0` … `pk-<stored - 1>` and, like a throttled table,
 * answers only `servedPerCall` keys of each request, handing the rest back as unprocessed.
 */
function fakeTable(stored: number, servedPerCall: number) {
  const requests: { keys: number; consistent: boolean }[] = [];
  const db = {
    send: async (command: BatchGetCommand) => {
      const request = command.input.RequestItems?.t as { Keys: Key[]; ConsistentRead: boolean };
      requests.push({ keys: request.Keys.length, consistent: request.ConsistentRead });
      const served = request.Keys.slice(0, servedPerCall);
      const unprocessed = request.Keys.slice(servedPerCall);
      return {
        Responses: { t: served.filter((key) => Number(key.pk.slice(3)) < stored).map((key) => ({ ...key, found: true })) },
        UnprocessedKeys: unprocessed.length ? { t: { Keys: unprocessed, ConsistentRead: true } } : {},
      };
    },
  } as unknown as DynamoDBDocumentClient;
  return { db, requests };
}

const keys = (count: number): Key[] => Array.from({ length: count }, (_, i) => ({ pk: `pk-${i}` }));

describe('batchGetAll', () => {
  it('reads more than 100 keys in requests of at most 100, consistently, and leaves out absent items', async () => {
    const { db, requests } = fakeTable(230, 100);
    const items = await batchGetAll(db, 't', keys(250));
    expect(items.map((item) => item.pk)).toEqual(keys(230).map((key) => key.pk));
    expect(requests).toEqual([100, 100, 50].map((n) => ({ keys: n, consistent: true })));
  });

  it('asks again for the keys DynamoDB left unprocessed until every one is answered', async () => {
    const { db, requests } = fakeTable(10, 4);
    const items = await batchGetAll(db, 't', keys(10));
    expect(items).toHaveLength(10);
    expect(requests.map((r) => r.keys)).toEqual([10, 6, 2]);
  });

  it('fails rather than return a partial answer when keys stay unprocessed', async () => {
    const { db, requests } = fakeTable(10, 0);
    await expect(batchGetAll(db, 't', keys(3))).rejects.toThrow('BatchGetItem left 3 keys of t unprocessed after 5 rounds');
    expect(requests).toHaveLength(5);
  });
});
