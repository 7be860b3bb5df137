import type { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { batchGetAll, batchGetTables } from '../../functions/adapters/dynamodb/batch-get-all';

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
        Responses: {
          t: served.filter((key) => Number(key.pk.slice(3)) < stored).map((key) => ({ ...key, found: true })),
        },
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
    await expect(batchGetAll(db, 't', keys(3))).rejects.toThrow(
      'BatchGetItem left 3 keys of t unprocessed after 5 rounds',
    );
    expect(requests).toHaveLength(5);
  });
});

describe('batchGetTables', () => {
  /** Two tables; each request answers the first `servedPerCall` keys it names and hands back the rest. */
  function fakeTables(servedPerCall: number) {
    const requests: Record<string, number>[] = [];
    const db = {
      send: async (command: BatchGetCommand) => {
        const asked = Object.entries(command.input.RequestItems ?? {}).flatMap(([table, request]) =>
          (request.Keys as Key[]).map((key) => ({ table, key, consistent: request.ConsistentRead })),
        );
        requests.push(
          Object.fromEntries(
            Object.keys(command.input.RequestItems ?? {}).map((table) => [
              table,
              asked.filter((a) => a.table === table).length,
            ]),
          ),
        );
        if (asked.some((a) => !a.consistent)) throw new Error('inconsistent read');
        const responses: Record<string, unknown[]> = {};
        const unprocessed: Record<string, { Keys: Key[] }> = {};
        asked.forEach(({ table, key }, i) => {
          if (i < servedPerCall) (responses[table] ??= []).push({ ...key, table });
          else (unprocessed[table] ??= { Keys: [] }).Keys.push(key);
        });
        return { Responses: responses, UnprocessedKeys: unprocessed };
      },
    } as unknown as DynamoDBDocumentClient;
    return { db, requests };
  }

  it('reads the keys of several tables in one request, consistently, and answers them table by table', async () => {
    const { db, requests } = fakeTables(100);
    const items = await batchGetTables(db, { deliveries: keys(5), partners: keys(1), empty: [] });
    expect(requests).toEqual([{ deliveries: 5, partners: 1 }]);
    expect(items.deliveries?.map((item) => item.pk)).toEqual(keys(5).map((key) => key.pk));
    expect(items.partners).toEqual([{ pk: 'pk-0', table: 'partners' }]);
    expect(items.empty).toEqual([]);
  });

  it('asks again for the unprocessed keys of every table, and shares the 100-key limit among them', async () => {
    const { db, requests } = fakeTables(60);
    const items = await batchGetTables(db, { a: keys(99), b: keys(3) });
    expect(items.a).toHaveLength(99);
    expect(items.b).toHaveLength(3);
    expect(requests).toEqual([{ a: 99, b: 1 }, { a: 39, b: 1 }, { b: 2 }]);
  });
});
