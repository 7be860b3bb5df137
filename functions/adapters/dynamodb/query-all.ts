import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * Every item a query matches, page after page; with `limit`, stops once that many are
 * in hand (a filter can leave pages short, so DynamoDB's own `Limit` would not do).
 */
export async function queryAll(
  db: DynamoDBDocumentClient,
  input: QueryCommandInput,
  options: { limit?: number } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  // A caller's own start key (a page cursor) is where the first query begins.
  let ExclusiveStartKey: Record<string, unknown> | undefined = input.ExclusiveStartKey;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && (options.limit === undefined || items.length < options.limit));
  return options.limit === undefined ? items : items.slice(0, options.limit);
}
