import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../../domain/clock';
import type { IdempotencyCompletion } from '../../domain/idempotency/idempotency-completion';
import type { IdempotencyRecord, IdempotencyStore } from '../../domain/idempotency/idempotency-guard';
import type { StoredOutcome } from '../../domain/idempotency/stored-outcome';
import type { TransactItem } from './transactions';

const idempotencyKeys = {
  record: (scope: string, key: string) => ({ pk: `IDEMPOTENCY#${scope}#${key}` }),
};

/**
 * The write that completes a claim: the outcome stored, on condition that `owner` still
 * holds the key in flight. The store's `complete` sends it alone; a repository adds it
 * to the transaction of the work the key guards (IdempotencyCompletion).
 */
const completionUpdate = (table: string, completion: IdempotencyCompletion) => ({
  TableName: table,
  Key: idempotencyKeys.record(completion.scope, completion.key),
  UpdateExpression: 'SET #state = :completed, statusCode = :status, body = :body',
  ConditionExpression: '#owner = :owner AND #state = :inFlight',
  ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
  ExpressionAttributeValues: {
    ':completed': 'completed',
    ':inFlight': 'in-flight',
    ':status': completion.outcome.statusCode,
    ':body': completion.outcome.body,
    ':owner': completion.owner,
  },
});

/** completionUpdate as one item of a TransactWriteItems. */
export const completionInTransaction = (table: string, completion: IdempotencyCompletion): TransactItem => ({
  Update: completionUpdate(table, completion),
});

interface RecordItem {
  pk: string;
  scope: string;
  key: string;
  fingerprint: string;
  owner: string;
  state: IdempotencyRecord['state'];
  statusCode?: number;
  body?: string;
  /** Epoch milliseconds: compared in conditions, since TTL deletion is lazy. */
  expiresAt: number;
  lockedUntil: number;
  /** Epoch seconds, for DynamoDB's TTL clean-up. */
  ttl: number;
}

const isConditionFailure = (error: unknown): boolean => (error as Error).name === 'ConditionalCheckFailedException';

/** Idempotency-Key records in the idempotency table (one item per partner and key). */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async claim(record: IdempotencyRecord, now: Date) {
    const item: RecordItem = {
      ...idempotencyKeys.record(record.scope, record.key),
      scope: record.scope,
      key: record.key,
      fingerprint: record.fingerprint,
      owner: record.owner,
      state: record.state,
      expiresAt: record.expiresAt.getTime(),
      lockedUntil: record.lockedUntil.getTime(),
      ttl: epochSeconds(record.expiresAt),
    };
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :inFlight AND lockedUntil <= :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': now.getTime(), ':inFlight': 'in-flight' },
        }),
      );
      return { claimed: true as const };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: idempotencyKeys.record(record.scope, record.key),
        ConsistentRead: true,
      }),
    );
    return { claimed: false as const, ...(Item ? { holder: toRecord(Item as RecordItem) } : {}) };
  }

  async complete(scope: string, key: string, owner: string, outcome: StoredOutcome): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand(completionUpdate(this.table, { scope, key, owner, outcome })));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async release(scope: string, key: string, owner: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: idempotencyKeys.record(scope, key),
          // Never a completed record: its owner's transaction may have committed although
          // the owner saw an error, and then the retry must replay it.
          ConditionExpression: '#owner = :owner AND #state = :inFlight',
          ExpressionAttributeNames: { '#owner': 'owner', '#state': 'state' },
          ExpressionAttributeValues: { ':owner': owner, ':inFlight': 'in-flight' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

function toRecord(item: RecordItem): IdempotencyRecord {
  return {
    scope: item.scope,
    key: item.key,
    fingerprint: item.fingerprint,
    owner: item.owner,
    state: item.state,
    ...(item.statusCode !== undefined && item.body !== undefined
      ? { outcome: { statusCode: item.statusCode, body: item.body } }
      : {}),
    expiresAt: new Date(item.expiresAt),
    lockedUntil: new Date(item.lockedUntil),
  };
}
