import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Delivery } from '../../webhooks/delivery';
import { slowPathKey, type SlowPathMoves } from '../../webhooks/slow-path-moves';
import { webhookKeys } from './dynamodb-delivery-items';
import { isConditionFailure } from './dynamodb-webhook-endpoint-items';

/**
 * The slow path's hand-over as attributes of the delivery item: `slowPathAttempt` (the moved
 * attempt's `<chain>:<attempt>`), `slowPathSend` and `slowPathSendUntil` (the claim of its POST).
 * Each write is conditional on the delivery still waiting for that attempt.
 */
export class DynamoSlowPathMoves implements SlowPathMoves {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** `updatedAt` stays: it says when the delivery's state last changed, and a move changes only its path. */
  move(delivery: Pick<Delivery, 'deliveryId' | 'chain'>, attempt: number): Promise<boolean> {
    return this.update(delivery, attempt, { UpdateExpression: 'SET slowPathAttempt = :key', values: {} });
  }

  claimSend(
    delivery: Pick<Delivery, 'deliveryId' | 'chain'>,
    attempt: number,
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean> {
    return this.update(delivery, attempt, {
      UpdateExpression: 'SET slowPathSend = :key, slowPathSendUntil = :until',
      condition:
        ' AND slowPathAttempt = :key AND (attribute_not_exists(slowPathSend) OR slowPathSend <> :key OR slowPathSendUntil < :now)',
      values: { ':until': leaseUntil.toISOString(), ':now': now.toISOString() },
    });
  }

  private async update(
    delivery: Pick<Delivery, 'deliveryId' | 'chain'>,
    attempt: number,
    change: { UpdateExpression: string; condition?: string; values: Record<string, unknown> },
  ): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: webhookKeys.delivery(delivery.deliveryId),
          UpdateExpression: change.UpdateExpression,
          ConditionExpression: `#status = :pending AND chain = :chain AND attemptCount = :previous${change.condition ?? ''}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':pending': 'pending',
            ':chain': delivery.chain,
            ':previous': attempt - 1,
            ':key': slowPathKey(delivery.chain, attempt),
            ...change.values,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
