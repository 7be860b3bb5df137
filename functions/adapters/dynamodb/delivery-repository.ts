import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../../domain/clock';
import type { PartnerId } from '../../domain/partners/partner';
import type { Delivery, DeliveryAttempt, DeliveryId, DeliveryStatus } from '../../domain/webhooks/delivery';
import type { AttemptOutcome, DeliveryRepository } from '../../domain/webhooks/delivery-repository';
import { queryAll } from './query-all';
import { failedConditions } from './transactions';

/** Deliveries, attempts and event de-duplication items are kept this long after their last change. */
const RETENTION_SECONDS = 30 * 24 * 3600;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Key shapes of the webhooks table, written once. */
export const webhookKeys = {
  delivery: (deliveryId: string) => ({ pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  attempt: (deliveryId: string, chain: number, attempt: number) => ({
    pk: `DELIVERY#${deliveryId}`,
    sk: `ATTEMPT#${pad(chain, 6)}#${pad(attempt, 3)}`,
  }),
  /** One per (partner, event id): the conditional write that makes an event deliver once. */
  event: (partnerId: string, eventId: string) => ({ pk: `EVENT#${partnerId}#${eventId}`, sk: 'EVENT' }),
  deliveriesOfPartner: (partnerId: string) => `PARTNER#${partnerId}#DELIVERIES`,
};

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'ttl'];
const strip = <T>(item: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !KEY_ATTRIBUTES.includes(k))) as T;

const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

export class DynamoDeliveryRepository implements DeliveryRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async createForEvent(delivery: Delivery): Promise<{ created: true } | { created: false; existing: Delivery }> {
    const ttl = epochSeconds(new Date(delivery.createdAt)) + RETENTION_SECONDS;
    const eventKey = webhookKeys.event(delivery.partnerId, delivery.eventId);
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: { ...eventKey, deliveryId: delivery.deliveryId, createdAt: delivery.createdAt, ttl },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.table,
                Item: {
                  ...webhookKeys.delivery(delivery.deliveryId),
                  gsi1pk: webhookKeys.deliveriesOfPartner(delivery.partnerId),
                  gsi1sk: `${delivery.createdAt}#${delivery.deliveryId}`,
                  ttl,
                  ...delivery,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return { created: true };
    } catch (error) {
      if (!failedConditions(error)?.includes(0)) throw error;
    }
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: eventKey, ConsistentRead: true }));
    const existing = Item ? await this.get(Item.deliveryId as DeliveryId) : undefined;
    if (!existing) throw new Error(`Event ${delivery.eventId} is recorded without its delivery`);
    return { created: false, existing };
  }

  async get(deliveryId: DeliveryId): Promise<Delivery | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: webhookKeys.delivery(deliveryId), ConsistentRead: true }),
    );
    return Item ? strip<Delivery>(Item) : undefined;
  }

  async markQueued(deliveryId: DeliveryId, at: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(deliveryId),
        UpdateExpression: 'SET queued = :true, updatedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':true': true, ':at': at.toISOString() },
      }),
    );
  }

  async recordAttempt(delivery: Delivery, outcome: AttemptOutcome, at: Date): Promise<boolean> {
    const { attempt } = outcome;
    const ttl = epochSeconds(at) + RETENTION_SECONDS;
    const set = ['#status = :status', 'attemptCount = :count', 'updatedAt = :at', '#ttl = :ttl'];
    const values: Record<string, unknown> = {
      ':status': outcome.status,
      ':count': attempt.attempt,
      ':previous': attempt.attempt - 1,
      ':pending': 'pending',
      ':chain': attempt.chain,
      ':at': at.toISOString(),
      ':ttl': ttl,
    };
    if (outcome.nextAttemptAt) {
      set.push('nextAttemptAt = :next');
      values[':next'] = outcome.nextAttemptAt;
    }
    if (outcome.alertStatus) {
      set.push('alertStatus = :alert');
      values[':alert'] = outcome.alertStatus;
    }
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table,
                Key: webhookKeys.delivery(delivery.deliveryId),
                UpdateExpression: `SET ${set.join(', ')}${outcome.nextAttemptAt ? '' : ' REMOVE nextAttemptAt'}`,
                ConditionExpression: '#status = :pending AND chain = :chain AND attemptCount = :previous',
                ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
                ExpressionAttributeValues: values,
              },
            },
            {
              Put: {
                TableName: this.table,
                Item: { ...webhookKeys.attempt(delivery.deliveryId, attempt.chain, attempt.attempt), ttl, ...attempt },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (failedConditions(error)) return false;
      throw error;
    }
  }

  async claimAlert(deliveryId: DeliveryId, now: Date, leaseUntil: Date): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: webhookKeys.delivery(deliveryId),
          UpdateExpression: 'SET alertStatus = :sending, alertLeaseUntil = :lease',
          ConditionExpression: 'alertStatus = :pending OR (alertStatus = :sending AND alertLeaseUntil < :now)',
          ExpressionAttributeValues: {
            ':sending': 'sending',
            ':pending': 'pending',
            ':lease': leaseUntil.toISOString(),
            ':now': now.toISOString(),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async settleAlert(deliveryId: DeliveryId, status: 'sent' | 'no-address' | 'pending', at: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(deliveryId),
        UpdateExpression: 'SET alertStatus = :status, updatedAt = :at REMOVE alertLeaseUntil',
        ConditionExpression: 'alertStatus = :sending',
        ExpressionAttributeValues: { ':status': status, ':sending': 'sending', ':at': at.toISOString() },
      }),
    );
  }

  async startNewChain(deliveryId: DeliveryId, expectedChain: number, dueAt: Date, at: Date): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: webhookKeys.delivery(deliveryId),
          UpdateExpression:
            'SET chain = :next, #status = :pending, attemptCount = :zero, nextAttemptAt = :due, queued = :true, updatedAt = :at, #ttl = :ttl REMOVE alertStatus, alertLeaseUntil',
          ConditionExpression: 'chain = :expected',
          ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':next': expectedChain + 1,
            ':expected': expectedChain,
            ':pending': 'pending',
            ':zero': 0,
            ':due': dueAt.toISOString(),
            ':true': true,
            ':at': at.toISOString(),
            ':ttl': epochSeconds(at) + RETENTION_SECONDS,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async listAttempts(deliveryId: DeliveryId): Promise<DeliveryAttempt[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :attempt)',
      ExpressionAttributeValues: { ':pk': webhookKeys.delivery(deliveryId).pk, ':attempt': 'ATTEMPT#' },
      ConsistentRead: true,
    });
    return items.map((item) => strip<DeliveryAttempt>(item));
  }

  async listByPartner(partnerId: PartnerId, options: { status?: DeliveryStatus; limit: number }): Promise<Delivery[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p',
        ScanIndexForward: false,
        ...(options.status
          ? {
              FilterExpression: '#status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':p': webhookKeys.deliveriesOfPartner(partnerId), ':status': options.status },
            }
          : { ExpressionAttributeValues: { ':p': webhookKeys.deliveriesOfPartner(partnerId) } }),
      },
      { limit: options.limit },
    );
    return items.map((item) => strip<Delivery>(item));
  }

}
