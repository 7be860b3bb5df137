/**
 * The cursor the order and approval lists hand out (`next_cursor`, the module's "Older"
 * links): it comes back only as a key of the list it came from.
 */
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../functions/adapters/dynamodb/page-cursor';
import { ValidationFailed } from '../../functions/domain/errors';

const KEY = { pk: 'ORDER#1', sk: 'ORDER', gsi1pk: 'ORG#a', gsi1sk: '2026-01-01T00:00:00.000Z#1' };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ValidationFailed
      ? error.issues.map((issue) => `${issue.path.join('.')}:${issue.code}`)
      : error;
  }
  return 'accepted';
};

describe('a list page cursor', () => {
  it('continues the list it came from', () => {
    expect(decodeCursor(encodeCursor(KEY), 'ORG#a')).toEqual(KEY);
  });

  it("refuses another organization's cursor, a cursor of another shape and one that is no cursor (INVALID_CURSOR)", () => {
    expect(refusal(() => decodeCursor(encodeCursor(KEY), 'ORG#b'))).toEqual(['cursor:INVALID_CURSOR']);
    expect(refusal(() => decodeCursor(encodeCursor({ ...KEY, extra: 'x' }), 'ORG#a'))).toEqual([
      'cursor:INVALID_CURSOR',
    ]);
    expect(refusal(() => decodeCursor('not a cursor', 'ORG#a'))).toEqual(['cursor:INVALID_CURSOR']);
  });
});
