/**
 * The page cursor of a gsi1 list: the last evaluated (or last shown) key, opaque to
 * callers, and accepted back only as a key of the same partition.
 */
import { ValidationFailed } from '../../domain/errors';

export const encodeCursor = (key: Record<string, unknown>): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string, partition: string): Record<string, unknown> {
  const invalid = () =>
    new ValidationFailed([
      {
        code: 'INVALID_CURSOR',
        message: 'cursor must be the next_cursor of an earlier page of the same list',
        path: ['cursor'],
      },
    ]);
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const shaped =
    typeof key === 'object' &&
    key !== null &&
    Object.keys(key).sort().join(',') === 'gsi1pk,gsi1sk,pk,sk' &&
    Object.values(key).every((value) => typeof value === 'string');
  if (!shaped || (key as { gsi1pk: string }).gsi1pk !== partition) throw invalid();
  return key as Record<string, unknown>;
}
