import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

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
