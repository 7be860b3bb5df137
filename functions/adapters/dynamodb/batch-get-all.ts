import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** DynamoDB's limit on keys per BatchGetItem, across all its tables. */
const KEYS_PER_REQUEST = 100;
/** Rounds for keys DynamoDB left unprocessed (throttling, 16 MB responses) before giving up. */
const MAX_ROUNDS = 5;
const BACKOFF_MS = 25;

type Key = Record<string, unknown>;
type KeysByTable = Readonly<Record<string, readonly Key[]>>;

const requestItems = (keys: KeysByTable) =>
  Object.fromEntries(
    Object.entries(keys)
      .filter(([, tableKeys]) => tableKeys.length > 0)
      .map(([table, tableKeys]) => [table, { Keys: [...tableKeys], ConsistentRead: true }]),
  );

/** Splits the keys into requests of at most KEYS_PER_REQUEST keys, tables mixed. */
function chunks(keys: KeysByTable): KeysByTable[] {
  const all = Object.entries(keys).flatMap(([table, tableKeys]) => tableKeys.map((key) => [table, key] as const));
  const requests: KeysByTable[] = [];
  for (let start = 0; start < all.length; start += KEYS_PER_REQUEST) {
    const request: Record<string, Key[]> = {};
    for (const [table, key] of all.slice(start, start + KEYS_PER_REQUEST)) (request[table] ??= []).push(key);
    requests.push(request);
  }
  return requests;
}

/**
 * The items of `keys`, table by table (absent keys are simply missing), read with strong
 * consistency in as few BatchGetItem requests as the limits allow: keys of several tables
 * share a request. Keys DynamoDB returns unprocessed are asked for again with a growing
 * pause; whatever is still unprocessed after that is an error, never a silently missing item.
 */
export async function batchGetTables(db: DynamoDBDocumentClient, keys: KeysByTable): Promise<Record<string, Key[]>> {
  const items: Record<string, Key[]> = Object.fromEntries(Object.keys(keys).map((table) => [table, []]));
  for (const chunk of chunks(keys)) {
    let pending: KeysByTable = chunk;
    for (let round = 0; Object.keys(pending).length > 0; round += 1) {
      if (round === MAX_ROUNDS) {
        const left = Object.entries(pending).map(([table, tableKeys]) => `${tableKeys.length} keys of ${table}`);
        throw new Error(`BatchGetItem left ${left.join(' and ')} unprocessed after ${round} rounds`);
      }
      if (round > 0) await new Promise((resume) => setTimeout(resume, BACKOFF_MS * 2 ** (round - 1)));
      const { Responses = {}, UnprocessedKeys = {} } = await db.send(
        new BatchGetCommand({ RequestItems: requestItems(pending) }),
      );
      for (const [table, found] of Object.entries(Responses)) (items[table] ??= []).push(...(found as Key[]));
      pending = Object.fromEntries(
        Object.entries(UnprocessedKeys).flatMap(([table, left]) =>
          left.Keys?.length ? [[table, left.Keys as Key[]]] : [],
        ),
      );
    }
  }
  return items;
}

/** The items of `keys` in one table: `batchGetTables` for a single table. */
export async function batchGetAll(db: DynamoDBDocumentClient, table: string, keys: readonly Key[]): Promise<Key[]> {
  return (await batchGetTables(db, { [table]: keys }))[table] ?? [];
}
