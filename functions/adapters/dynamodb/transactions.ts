import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentModification } from '../../domain/errors';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * Indexes of the transaction items whose condition failed, or undefined when the
 * transaction failed for another reason (throttling, conflict, validation).
 */
export function failedConditions(error: unknown): number[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reasons = error.CancellationReasons ?? [];
  const failed = reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
  return failed.length ? failed : undefined;
}

/**
 * Whether the transaction was cancelled because another transaction was writing the
 * same items at that moment: nothing was written, and trying again is the remedy.
 */
export function lostTransactionConflict(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  return (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
}

/**
 * Writes all of `items` or none. A failed condition or a conflicting transaction means
 * someone changed what was read: ConcurrentModification (`what` says what changed), which
 * callers re-read or report; anything else is thrown as it is.
 */
export async function writeAllOrNothing(
  db: DynamoDBDocumentClient,
  items: TransactItem[],
  what: string,
): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (failedConditions(error) || lostTransactionConflict(error)) {
      throw new ConcurrentModification(`${what} changed while this change was being made`, { cause: error });
    }
    throw error;
  }
}
