import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type {
  ApprovalChange,
  ApprovalListQuery,
  ApprovalPage,
  ApprovalRepository,
  PlaceableCondition,
} from '../../domain/approvals/approval-repository';
import { APPROVAL_TTL_MS, type ApprovalRequest, type ApprovalRequestId } from '../../domain/approvals/approval-request';
import type { Clock } from '../../domain/clock';
import { IdempotencyKeyInFlight, ValidationFailed } from '../../domain/errors';
import type { OrderEventMessage } from '../../domain/events/order-event-message';
import type { Cart, CartLine } from '../../domain/orders/cart';
import type { MonthSpendCharge } from '../../domain/spending/monthly-spend';
import type { Order } from '../../domain/orders/order';
import type { OrganizationId } from '../../domain/organizations/organization';
import { cartKeys, cartLineItem, resubmitMarkerItem } from './cart-repository';
import { approvalKeys, keyOf, requestItem } from './dynamodb-approval-items';
import { filterOf, keyCondition, withFilter } from './dynamodb-approval-page-query';
import { consumedCartLines, monthSpendUpdate, orderItem, outboxPut } from './dynamodb-order-items';
import { completionInTransaction } from './idempotency-store';
import { organizationKeys } from './organization-items';
import { decodeCursor, encodeCursor } from './page-cursor';
import { failedConditions, type TransactItem, writeAllOrNothing } from './transactions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class DynamoApprovalRepository implements ApprovalRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: {
      readonly orders: string;
      readonly carts: string;
      readonly organizations: string;
      /** Where a sandbox decision's Idempotency-Key completion goes, in the decision's own transaction. */
      readonly idempotency: string;
    },
    private readonly clock: Clock,
  ) {}

  async submit(request: ApprovalRequest, event: OrderEventMessage, consumedCart?: Cart): Promise<void> {
    await this.write([
      {
        Put: {
          TableName: this.tables.orders,
          Item: requestItem(request),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.tables.orders,
          Item: {
            ...approvalKeys.due(request.id),
            gsi1pk: approvalKeys.duePartition,
            gsi1sk: `${request.expiresAt}#${request.id}`,
            requestId: request.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      outboxPut(this.tables.orders, event, this.clock),
      ...(consumedCart ? consumedCartLines(this.tables.carts, consumedCart) : []),
      ...(request.resubmittedFrom === undefined ? [] : [this.resubmittedBy(request.resubmittedFrom, request.id)]),
    ]);
  }

  /**
   * Marks the original request resubmitted by `by`, once: the version moves on, so an
   * expiry sweep that read it before writes nothing over the mark (and retries later).
   */
  private resubmittedBy(original: ApprovalRequestId, by: ApprovalRequestId): TransactItem {
    return {
      Update: {
        TableName: this.tables.orders,
        Key: approvalKeys.request(original),
        UpdateExpression:
          'SET resubmittedBy = :by, #request.resubmittedBy = :by, version = version + :one, #request.version = #request.version + :one',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(resubmittedBy)',
        ExpressionAttributeNames: { '#request': 'request' },
        ExpressionAttributeValues: { ':by': by, ':one': 1 },
      },
    };
  }

  async resubmitIntoCart(cart: Cart, lines: readonly CartLine[], requestId: ApprovalRequestId): Promise<void> {
    const now = this.clock.now();
    const wanted = new Set(lines.map((line) => line.productId));
    const asRead = (quantity: number | undefined) =>
      quantity === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'quantity = :quantity', ExpressionAttributeValues: { ':quantity': quantity } };
    const held = (productId: string) => cart.lines.find((line) => line.productId === productId)?.quantity;
    await this.write([
      ...cart.lines
        .filter((line) => !wanted.has(line.productId))
        .map((line): TransactItem => ({
          Delete: {
            TableName: this.tables.carts,
            Key: cartKeys.line(cart.profileId, line.productId),
            ...asRead(line.quantity),
          },
        })),
      ...lines.map((line): TransactItem => ({
        Put: {
          TableName: this.tables.carts,
          Item: cartLineItem(cart.profileId, line, now),
          ...asRead(held(line.productId)),
        },
      })),
      {
        Put: {
          TableName: this.tables.carts,
          Item: resubmitMarkerItem(cart.profileId, requestId, now),
          ...(cart.resubmits === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'requestId = :requestId',
                ExpressionAttributeValues: { ':requestId': cart.resubmits },
              }),
        },
      },
    ]);
  }

  async approve(
    change: ApprovalChange & {
      readonly order: Order;
      readonly orderEvent: OrderEventMessage;
      readonly placeable: PlaceableCondition;
      readonly spend: MonthSpendCharge;
    },
  ): Promise<void> {
    const { partnerId, internalOrgId, internalUserId, internalShippingLocationId } = change.placeable;
    await this.decisionWrite(change, [
      ...this.decision(change),
      // A deactivation (of the requester or the location) committed after approve read them stops the order.
      {
        ConditionCheck: {
          TableName: this.tables.organizations,
          Key: organizationKeys.profile(partnerId, internalOrgId, internalUserId),
          ConditionExpression: 'attribute_exists(userId) AND (attribute_not_exists(active) OR active = :true)',
          ExpressionAttributeValues: { ':true': true },
        },
      },
      {
        ConditionCheck: {
          TableName: this.tables.organizations,
          Key: organizationKeys.location(partnerId, internalOrgId, internalShippingLocationId),
          ConditionExpression: 'isActive = :true',
          ExpressionAttributeValues: { ':true': true },
        },
      },
      {
        Put: {
          TableName: this.tables.orders,
          Item: orderItem(change.order),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      outboxPut(this.tables.orders, change.orderEvent, this.clock),
      monthSpendUpdate(this.tables.orders, change.spend),
    ]);
  }

  async decide(
    change: ApprovalChange & { readonly restore?: { readonly cart: Cart; readonly lines: readonly CartLine[] } },
  ): Promise<void> {
    const restore = change.restore;
    const now = this.clock.now();
    const lines: TransactItem[] = (restore?.lines ?? []).map((line) => {
      const held = restore!.cart.lines.find((candidate) => candidate.productId === line.productId);
      return {
        Put: {
          TableName: this.tables.carts,
          Item: cartLineItem(restore!.cart.profileId, line, now),
          // The line as it was read, or still absent: a cart changed meanwhile restores nothing.
          ...(held
            ? { ConditionExpression: 'quantity = :quantity', ExpressionAttributeValues: { ':quantity': held.quantity } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      };
    });
    await this.decisionWrite(change, [...this.decision(change), ...lines]);
  }

  /**
   * The request's change (only if it is still pending at the version the change was made
   * from and, unless it is the expiry itself, not yet expired), the removal of its due
   * item, and its approval.decided event.
   */
  private decision(change: ApprovalChange): TransactItem[] {
    const { request } = change;
    const beforeExpiry = request.status !== 'expired' && request.decidedAt !== undefined;
    return [
      {
        Put: {
          TableName: this.tables.orders,
          Item: requestItem(request),
          ConditionExpression: `#status = :pending AND version = :version${beforeExpiry ? ' AND expiresAt > :at' : ''}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':pending': 'pending',
            ':version': change.expectedVersion,
            ...(beforeExpiry ? { ':at': request.decidedAt } : {}),
          },
        },
      },
      { Delete: { TableName: this.tables.orders, Key: approvalKeys.due(request.id) } },
      outboxPut(this.tables.orders, change.event, this.clock),
    ];
  }

  /**
   * `items` with the change's Idempotency-Key completion last, so the other items keep
   * their indexes. A failed completion means the claim lapsed and another request holds
   * the key: nothing was written, and that request's outcome is the one to replay.
   */
  private async decisionWrite(change: ApprovalChange, items: TransactItem[]): Promise<void> {
    const { completion } = change;
    if (!completion) return this.write(items);
    const all = [...items, completionInTransaction(this.tables.idempotency, completion)];
    try {
      await this.write(all);
    } catch (error) {
      if (failedConditions((error as Error).cause)?.includes(all.length - 1))
        throw new IdempotencyKeyInFlight('A request with this Idempotency-Key is still being processed; retry later', {
          cause: error,
        });
      throw error;
    }
  }

  private write(items: TransactItem[]): Promise<void> {
    return writeAllOrNothing(this.db, items, 'The approval request or cart');
  }

  async get(id: ApprovalRequestId): Promise<ApprovalRequest | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.orders, Key: approvalKeys.request(id), ConsistentRead: true }),
    );
    return Item?.request as ApprovalRequest | undefined;
  }

  /**
   * One page, newest first: gsi1 read with the query's filters, as many reads as it takes
   * to find one more request than the page holds (so `nextCursor` promises only what
   * exists). The cursor is the last shown request's key.
   */
  async listByOrganization(organizationId: OrganizationId, query: ApprovalListQuery): Promise<ApprovalPage> {
    const partition = approvalKeys.ofOrganization(organizationId);
    const filter = filterOf(query);
    const found: ApprovalRequest[] = [];
    let exclusiveStartKey =
      query.startingAfter !== undefined
        ? await this.keyOfRequestIn(query.startingAfter, organizationId)
        : query.cursor === undefined
          ? undefined
          : decodeCursor(query.cursor, partition);
    do {
      const { Items = [], LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.tables.orders,
          IndexName: 'gsi1',
          ...keyCondition(query.since),
          ...withFilter(filter, query.since === undefined ? {} : { ':since': query.since }, partition),
          ScanIndexForward: false,
          Limit: Math.max(query.limit + 1, 25),
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      found.push(...Items.map((item) => item.request as ApprovalRequest));
      exclusiveStartKey = LastEvaluatedKey;
    } while (found.length <= query.limit && exclusiveStartKey);
    const requests = found.slice(0, query.limit);
    const last = requests.at(-1);
    return found.length > query.limit && last ? { requests, nextCursor: encodeCursor(keyOf(last)) } : { requests };
  }

  /** gsi1's key of a request of this organization, to start a page after it. */
  private async keyOfRequestIn(requestId: string, organizationId: OrganizationId): Promise<Record<string, unknown>> {
    const request = UUID.test(requestId) ? await this.get(requestId.toLowerCase() as ApprovalRequestId) : undefined;
    if (!request || request.organizationId !== organizationId) {
      throw new ValidationFailed([
        {
          code: 'INVALID_CURSOR',
          message: 'starting_after must be the id of an approval request of the same organization',
          path: ['starting_after'],
        },
      ]);
    }
    return keyOf(request);
  }

  async countPending(organizationId: OrganizationId, now: Date): Promise<number> {
    const partition = approvalKeys.ofOrganization(organizationId);
    // Nothing made earlier can still wait: the read stays as small as a week's requests.
    const since = new Date(now.getTime() - APPROVAL_TTL_MS).toISOString();
    let count = 0;
    let exclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const { Count = 0, LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.tables.orders,
          IndexName: 'gsi1',
          ...keyCondition(since),
          ...withFilter(filterOf({ status: 'pending', now }), { ':since': since }, partition),
          Select: 'COUNT',
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      count += Count;
      exclusiveStartKey = LastEvaluatedKey;
    } while (exclusiveStartKey);
    return count;
  }

  async listDue(now: Date, limit: number, cursor?: string): Promise<{ ids: ApprovalRequestId[]; nextCursor?: string }> {
    const { Items = [], LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tables.orders,
        IndexName: 'gsi1',
        // `~` sorts after `#`: every due item expiring at or before now, none after.
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :bound',
        ExpressionAttributeValues: { ':pk': approvalKeys.duePartition, ':bound': `${now.toISOString()}~` },
        ScanIndexForward: true,
        Limit: limit,
        ExclusiveStartKey: cursor === undefined ? undefined : decodeCursor(cursor, approvalKeys.duePartition),
      }),
    );
    const ids = Items.map((item) => item.requestId as ApprovalRequestId);
    return LastEvaluatedKey ? { ids, nextCursor: encodeCursor(LastEvaluatedKey) } : { ids };
  }
}
