/**
 * What a list or count of an organization's approval requests asks of gsi1: the key
 * condition (from a creation time on) and the status (as of now) and requester as a filter.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ApprovalListQuery } from '../../domain/approvals/approval-repository';

interface Filter {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, unknown>;
}

/** The query's status (as of `now`: a pending request past its expiry is expired) and requester, as a filter. */
export function filterOf(query: Pick<ApprovalListQuery, 'status' | 'profileId' | 'now'>): Filter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.status !== undefined) {
    names['#status'] = 'status';
    const now = query.now.toISOString();
    if (query.status === 'pending') {
      parts.push('(#status = :pending AND expiresAt > :now)');
      Object.assign(values, { ':pending': 'pending', ':now': now });
    } else if (query.status === 'expired') {
      parts.push('(#status = :expired OR (#status = :pending AND expiresAt <= :now))');
      Object.assign(values, { ':expired': 'expired', ':pending': 'pending', ':now': now });
    } else {
      parts.push('#status = :status');
      values[':status'] = query.status;
    }
  }
  if (query.profileId !== undefined) {
    parts.push('profileId = :profileId');
    values[':profileId'] = query.profileId;
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}

export const keyCondition = (since: string | undefined): Pick<QueryCommandInput, 'KeyConditionExpression'> => ({
  KeyConditionExpression: since === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk >= :since',
});

export function withFilter(
  filter: Filter | undefined,
  keyValues: Record<string, unknown>,
  partition: string,
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const values = { ':pk': partition, ...keyValues, ...(filter?.values ?? {}) };
  if (!filter) return { ExpressionAttributeValues: values };
  return {
    FilterExpression: filter.expression,
    ...(Object.keys(filter.names).length ? { ExpressionAttributeNames: filter.names } : {}),
    ExpressionAttributeValues: values,
  };
}
