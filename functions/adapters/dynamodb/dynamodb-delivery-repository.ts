import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../../domain/clock';
import type { PartnerId } from '../../domain/partners/partner';
import type { Delivery, DeliveryAttempt, DeliveryId, DeliveryStatus } from '../../webhooks/delivery';
import type {
  AttemptOutcome,
  DeliveryFilter,
  DeliveryPage,
  DeliveryRepository,
} from '../../webhooks/delivery-repository';
import { deliveryFromItem, deliveryWithAttemptsFromItem, indexKeys, webhookKeys } from './dynamodb-delivery-items';
import { queryAll } from './query-all';
import { failedConditions } from './transactions';

/** Deliveries, attempts and event de-duplication items are kept this long after their last change. */
const RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * A replay keeps at most this many attempts of earlier chains. With the current chain's
 * seven, a body at the SQS size limit (256 KiB) and attempts of the largest shape (2 KiB
 * URL, 1 KiB response body), the item stays below DynamoDB's 400 KB.
 */
const KEPT_EARLIER_ATTEMPTS = 14;

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
                  ...indexKeys(delivery),
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
    const existing = await this.getByEvent(delivery.partnerId, delivery.eventId);
    if (!existing) throw new Error(`Event ${delivery.eventId} is recorded without its delivery`);
    return { created: false, existing };
  }

  async getByEvent(partnerId: PartnerId, eventId: string): Promise<Delivery | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: webhookKeys.event(partnerId, eventId), ConsistentRead: true }),
    );
    return Item ? this.get(Item.deliveryId as DeliveryId) : undefined;
  }

  async get(deliveryId: DeliveryId): Promise<Delivery | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: webhookKeys.delivery(deliveryId), ConsistentRead: true }),
    );
    return Item ? deliveryFromItem(Item) : undefined;
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

  async recordAttempt(delivery: Pick<Delivery, 'deliveryId'>, outcome: AttemptOutcome, at: Date): Promise<boolean> {
    const { attempt } = outcome;
    const ttl = epochSeconds(at) + RETENTION_SECONDS;
    const set = [
      '#status = :status',
      'attemptCount = :count',
      'updatedAt = :at',
      '#ttl = :ttl',
      'attempts = list_append(if_not_exists(attempts, :none), :attempt)',
    ];
    const values: Record<string, unknown> = {
      ':attempt': [attempt],
      ':none': [],
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
        new UpdateCommand({
          TableName: this.table,
          Key: webhookKeys.delivery(delivery.deliveryId),
          UpdateExpression: `SET ${set.join(', ')}${outcome.nextAttemptAt ? '' : ' REMOVE nextAttemptAt'}`,
          ConditionExpression: '#status = :pending AND chain = :chain AND attemptCount = :previous',
          ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
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

  async bringForward(
    delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount' | 'nextAttemptAt'>,
    at: Date,
  ): Promise<boolean> {
    if (delivery.nextAttemptAt === undefined) return false;
    return this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(delivery.deliveryId),
        UpdateExpression: 'SET nextAttemptAt = :at, updatedAt = :at',
        ConditionExpression:
          '#status = :pending AND chain = :chain AND attemptCount = :count AND nextAttemptAt = :next AND attribute_not_exists(heldAt)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':chain': delivery.chain,
          ':count': delivery.attemptCount,
          ':next': delivery.nextAttemptAt,
          ':at': at.toISOString(),
        },
      }),
    );
  }

  async startNewChain(deliveryId: DeliveryId, expectedChain: number, dueAt: Date, at: Date): Promise<boolean> {
    // Attempts are only ever appended, so the first `dropped` entries stay the oldest until the update lands.
    const dropped = Math.max(0, (await this.listAttempts(deliveryId)).length - KEPT_EARLIER_ATTEMPTS);
    const trim = Array.from({ length: dropped }, (_, index) => `, attempts[${index}]`).join('');
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: webhookKeys.delivery(deliveryId),
          UpdateExpression: `SET chain = :next, #status = :pending, attemptCount = :zero, nextAttemptAt = :due, queued = :false, updatedAt = :at, #ttl = :ttl REMOVE alertStatus, alertLeaseUntil, heldAt${trim}`,
          ConditionExpression: 'chain = :expected',
          ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':next': expectedChain + 1,
            ':expected': expectedChain,
            ':pending': 'pending',
            ':zero': 0,
            ':due': dueAt.toISOString(),
            ':false': false,
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
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(deliveryId),
        ProjectionExpression: 'attempts',
        ConsistentRead: true,
      }),
    );
    return (Item?.attempts as DeliveryAttempt[] | undefined) ?? [];
  }

  async listByPartner(
    partnerId: PartnerId,
    options: { status?: DeliveryStatus; since?: string; limit: number },
  ): Promise<Delivery[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.table,
        IndexName: 'gsi1',
        // gsi1sk is `<createdAt>#<deliveryId>`, so "created at or after" is a key condition.
        KeyConditionExpression: options.since ? 'gsi1pk = :p AND gsi1sk >= :since' : 'gsi1pk = :p',
        ScanIndexForward: false,
        ...(options.status
          ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }
          : {}),
        ExpressionAttributeValues: {
          ':p': webhookKeys.deliveriesOfPartner(partnerId),
          ...(options.status ? { ':status': options.status } : {}),
          ...(options.since ? { ':since': options.since } : {}),
        },
      },
      { limit: options.limit },
    );
    return items.map(deliveryFromItem);
  }

  async pageByPartner(
    partnerId: PartnerId,
    filter: DeliveryFilter,
    page: { limit: number; startingAfter?: Delivery },
  ): Promise<DeliveryPage> {
    // One order's deliveries come from gsi2, so that filter reads only them; the rest narrow gsi1's partner partition.
    const byOrder = filter.orderId !== undefined;
    const [index, pk, sk] = byOrder ? (['gsi2', 'gsi2pk', 'gsi2sk'] as const) : (['gsi1', 'gsi1pk', 'gsi1sk'] as const);
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':p': byOrder
        ? webhookKeys.deliveriesOfOrder(partnerId, filter.orderId as string)
        : webhookKeys.deliveriesOfPartner(partnerId),
    };
    if (filter.since !== undefined) values[':since'] = filter.since;
    if (filter.status !== undefined) {
      filters.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = filter.status;
    }
    if (filter.event !== undefined) {
      filters.push('#event = :event');
      names['#event'] = 'event';
      values[':event'] = filter.event;
    }
    const after = page.startingAfter;
    const items = await queryAll(
      this.db,
      {
        TableName: this.table,
        IndexName: index,
        KeyConditionExpression: filter.since === undefined ? `${pk} = :p` : `${pk} = :p AND ${sk} >= :since`,
        ScanIndexForward: false,
        // One more than the page: whether there is a next page, without reading it.
        Limit: page.limit + 1,
        ...(filters.length ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ...(after
          ? {
              ExclusiveStartKey: {
                ...webhookKeys.delivery(after.deliveryId),
                [pk]: values[':p'],
                [sk]: webhookKeys.byCreation(after),
              },
            }
          : {}),
      },
      { limit: page.limit + 1 },
    );
    return {
      deliveries: items.slice(0, page.limit).map(deliveryWithAttemptsFromItem),
      hasMore: items.length > page.limit,
    };
  }

  async hold(delivery: Pick<Delivery, 'deliveryId' | 'chain' | 'attemptCount'>, at: Date): Promise<boolean> {
    return this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(delivery.deliveryId),
        UpdateExpression: 'SET heldAt = :at, updatedAt = :at, #ttl = :ttl',
        ConditionExpression: '#status = :pending AND chain = :chain AND attemptCount = :count',
        ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':at': at.toISOString(),
          ':ttl': epochSeconds(at) + RETENTION_SECONDS,
          ':pending': 'pending',
          ':chain': delivery.chain,
          ':count': delivery.attemptCount,
        },
      }),
    );
  }

  async release(deliveryId: DeliveryId, chain: number, dueAt: Date, at: Date): Promise<boolean> {
    return this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(deliveryId),
        UpdateExpression: 'SET nextAttemptAt = :due, updatedAt = :at REMOVE heldAt',
        ConditionExpression: 'attribute_exists(heldAt) AND #status = :pending AND chain = :chain',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':due': dueAt.toISOString(),
          ':at': at.toISOString(),
          ':pending': 'pending',
          ':chain': chain,
        },
      }),
    );
  }

  async cancel(deliveryId: DeliveryId, at: Date): Promise<boolean> {
    return this.conditionally(
      new UpdateCommand({
        TableName: this.table,
        Key: webhookKeys.delivery(deliveryId),
        UpdateExpression: 'SET #status = :cancelled, updatedAt = :at REMOVE heldAt, nextAttemptAt',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':cancelled': 'cancelled', ':pending': 'pending', ':at': at.toISOString() },
      }),
    );
  }

  private async conditionally(command: UpdateCommand): Promise<boolean> {
    try {
      await this.db.send(command);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
