import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** DynamoDB's limit on keys per BatchGetItem. */
const KEYS_PER_REQUEST = 100;
/** Rounds for keys DynamoDB left unprocessed (throttling, 16 MB responses) before giving up. */
const MAX_ROUNDS = 5;
const BACKOFF_MS = 25;

type Key = Record<string, unknown>;

/**
 * The items of `keys` in `table` (absent keys are simply missing), read with strong
 * consistency in as few BatchGetItem requests as the limits allow. Keys DynamoDB returns
 * unprocessed are asked for again with a growing pause; whatever is still unprocessed
 * after that is an error, never a silently missing item.
 */
export async function batchGetAll(db: DynamoDBDocumentClient, table: string, keys: readonly Key[]): Promise<Key[]> {
  const items: Key[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_REQUEST) {
    let pending: Key[] = keys.slice(start, start + KEYS_PER_REQUEST);
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === MAX_ROUNDS) throw new Error(`BatchGetItem left ${pending.length} keys of ${table} unprocessed after ${round} rounds`);
      if (round > 0) await new Promise((resume) => setTimeout(resume, BACKOFF_MS * 2 ** (round - 1)));
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...((Responses?.[table] ?? []) as Key[]));
      pending = (UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
    }
  }
  return items;
}
