import { type DynamoDBDocumentClient, GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../domain/clock';
import { ConcurrentModification, MonthlyLimitReached, ValidationFailed } from '../../domain/errors';
import type { MonthSpendCharge, SpendMonth } from '../../domain/orders/monthly-spend';
import type { Cart } from '../../domain/orders/cart';
import type { Order, OrderId } from '../../domain/orders/order';
import { toOutboxRecord } from '../../domain/events/order-outbox';
import {
  DEFAULT_ORDER_PAGE_SIZE,
  MAX_ORDERS_READ_PER_PAGE,
  MAX_ORDER_PAGE_SIZE,
  type OrderIdSearch,
  type OrderIdSearchResult,
  type OrderPage,
  type OrderPageRequest,
  type OrderRepository,
} from '../../domain/orders/order-repository';
import type { OrganizationId, ProfileId } from '../../domain/organizations/organization';
import type { OrderEventMessage } from '../../domain/events/order-event-message';
import { OUTBOX_KEY_PREFIX } from '../../resources/resource-definitions';
import { cartKeys } from './cart-repository';
import { failedConditions, type TransactItem, writeAllOrNothing } from './transactions';

/**
 * Key shapes of the orders table: an order by its id, listed per organization through
 * gsi1 (newest first), and the outbox item of each change, which the table's stream
 * carries to the order-events queue.
 */
export const orderKeys = {
  order: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  ordersOfOrganization: (organizationId: string) => `ORG#${organizationId}`,
  outbox: (eventId: string) => ({ pk: `${OUTBOX_KEY_PREFIX}${eventId}`, sk: 'OUTBOX' }),
  monthSpend: (profileId: string, month: string) => ({ pk: `SPEND#${profileId}`, sk: `MONTH#${month}` }),
};

/**
 * The order's amount added to its user's month total. With a limit, the addition is
 * conditional on the total staying within it: DynamoDB serializes the transactions on
 * this one item, so parallel orders can never pass the limit together.
 */
export const monthSpendUpdate = (table: string, charge: MonthSpendCharge): TransactItem => ({
  Update: {
    TableName: table,
    Key: orderKeys.monthSpend(charge.profileId, charge.month),
    UpdateExpression: 'ADD totalCents :amount',
    ...(charge.limitCents === undefined
      ? { ExpressionAttributeValues: { ':amount': charge.amountCents } }
      : {
          ConditionExpression: 'attribute_not_exists(totalCents) OR totalCents <= :room',
          ExpressionAttributeValues: { ':amount': charge.amountCents, ':room': charge.limitCents - charge.amountCents },
        }),
  },
});

/** The stored item of an order: approvals place orders in their own transactions, in exactly this shape. */
export const orderItem = (order: Order) => ({
  ...orderKeys.order(order.id),
  gsi1pk: orderKeys.ordersOfOrganization(order.organizationId),
  gsi1sk: `${order.createdAt}#${order.id}`,
  sequence: order.sequence,
  order,
});

/**
 * The outbox item of one event, written in the change's own transaction. Event ids derive
 * from the change, so a second write of one change is refused, never a second webhook.
 */
export const outboxPut = (table: string, event: OrderEventMessage, clock: Clock): TransactItem => {
  const record = toOutboxRecord(event, clock);
  return {
    Put: {
      TableName: table,
      Item: { ...orderKeys.outbox(record.eventId), message: record.message, ttl: record.expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
};

/** The removal of exactly the cart lines an order or request was priced from, each only if its quantity is still the one priced. */
export const consumedCartLines = (table: string, cart: Cart): TransactItem[] =>
  cart.lines.map((line) => ({
    Delete: {
      TableName: table,
      Key: cartKeys.line(cart.profileId, line.productId),
      ConditionExpression: 'quantity = :quantity',
      ExpressionAttributeValues: { ':quantity': line.quantity },
    },
  }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The page cursor: gsi1's last evaluated key, opaque to callers. */
const encodeCursor = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key)).toString('base64url');

export class DynamoOrderRepository implements OrderRepository, OrderIdSearch {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tables: { readonly orders: string; readonly carts: string },
    private readonly clock: Clock,
  ) {}

  private outboxPut(event: OrderEventMessage): TransactItem {
    return outboxPut(this.tables.orders, event, this.clock);
  }

  /**
   * The order, its order.created outbox item and, when given, the removal of the cart it
   * was placed from, in one transaction. Each cart line is removed only if its quantity
   * is still the one priced, so a cart changed (or ordered) meanwhile places nothing.
   */
  async create(order: Order, event: OrderEventMessage, consumedCart?: Cart, spend?: MonthSpendCharge): Promise<void> {
    const cartLines = consumedCart ? consumedCartLines(this.tables.carts, consumedCart) : [];
    const items: TransactItem[] = [
      {
        Put: { TableName: this.tables.orders, Item: orderItem(order), ConditionExpression: 'attribute_not_exists(pk)' },
      },
      this.outboxPut(event),
      ...cartLines,
    ];
    if (spend) items.push(monthSpendUpdate(this.tables.orders, spend));
    try {
      await this.write(items);
    } catch (error) {
      const failed = error instanceof ConcurrentModification ? failedConditions(error.cause) : undefined;
      if (spend?.limitCents !== undefined && failed?.includes(items.length - 1))
        throw new MonthlyLimitReached(`The month's orders of ${spend.profileId} would pass the monthly limit`, {
          cause: error,
        });
      throw error;
    }
  }

  async monthSpend(profileId: ProfileId, month: SpendMonth): Promise<number> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tables.orders,
        Key: orderKeys.monthSpend(profileId, month),
        ConsistentRead: true,
      }),
    );
    return typeof Item?.totalCents === 'number' ? Item.totalCents : 0;
  }

  async transition(input: {
    readonly order: Order;
    readonly expectedSequence: number;
    readonly event: OrderEventMessage;
  }): Promise<void> {
    await this.write([
      {
        Put: {
          TableName: this.tables.orders,
          Item: orderItem(input.order),
          ConditionExpression: '#sequence = :expected',
          ExpressionAttributeNames: { '#sequence': 'sequence' },
          ExpressionAttributeValues: { ':expected': input.expectedSequence },
        },
      },
      this.outboxPut(input.event),
    ]);
  }

  private write(items: TransactItem[]): Promise<void> {
    return writeAllOrNothing(this.db, items, 'The order or cart');
  }

  async get(orderId: OrderId): Promise<Order | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tables.orders, Key: orderKeys.order(orderId), ConsistentRead: true }),
    );
    return Item?.order as Order | undefined;
  }

  async listByOrganization(organizationId: OrganizationId, page: OrderPageRequest = {}): Promise<OrderPage> {
    const limit = Math.min(Math.max(page.limit ?? DEFAULT_ORDER_PAGE_SIZE, 1), MAX_ORDER_PAGE_SIZE);
    const partition = orderKeys.ordersOfOrganization(organizationId);
    const startKey =
      page.startingAfter !== undefined
        ? await this.keyOfOrderIn(page.startingAfter, organizationId)
        : page.cursor === undefined
          ? undefined
          : decodeCursor(page.cursor, partition);
    const range = createdRange(page);
    const filter = filterOf(page);
    if (filter) return this.listFiltered(partition, range, filter, limit, startKey);
    const { Items = [], LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tables.orders,
        IndexName: 'gsi1',
        KeyConditionExpression: `gsi1pk = :pk${range.condition}`,
        ExpressionAttributeValues: { ':pk': partition, ...range.values },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    const orders = Items.map((item) => item.order as Order);
    // DynamoDB may hand back a key after an exactly full last page; only promise more when there is more.
    const nextCursor =
      LastEvaluatedKey && (await this.hasMore(partition, range, LastEvaluatedKey))
        ? encodeCursor(LastEvaluatedKey)
        : undefined;
    return { orders, ...(nextCursor ? { nextCursor } : {}) };
  }

  /**
   * One page of the organization's orders that pass a filter (status, PO number, user):
   * gsi1 read newest first with the filter, as many reads as it takes to find one more
   * order than the page holds (so `nextCursor` promises only what exists), up to
   * MAX_ORDERS_READ_PER_PAGE orders read; past that, `nextCursor` continues where the read
   * stopped. The cursor is the last shown order's key.
   */
  private async listFiltered(
    partition: string,
    range: CreatedRange,
    filter: OrderFilter,
    limit: number,
    startKey: Record<string, unknown> | undefined,
  ): Promise<OrderPage> {
    const found: Order[] = [];
    let exclusiveStartKey = startKey;
    let read = 0;
    do {
      const {
        Items = [],
        LastEvaluatedKey,
        ScannedCount = 0,
      } = await this.db.send(
        new QueryCommand({
          TableName: this.tables.orders,
          IndexName: 'gsi1',
          KeyConditionExpression: `gsi1pk = :pk${range.condition}`,
          FilterExpression: filter.expression,
          ExpressionAttributeNames: { '#order': 'order', ...filter.names },
          ExpressionAttributeValues: { ':pk': partition, ...range.values, ...filter.values },
          ScanIndexForward: false,
          Limit: Math.min(Math.max(limit + 1, 25), MAX_ORDERS_READ_PER_PAGE - read),
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      read += ScannedCount;
      found.push(...Items.map((item) => item.order as Order));
      exclusiveStartKey = LastEvaluatedKey;
    } while (found.length <= limit && exclusiveStartKey && read < MAX_ORDERS_READ_PER_PAGE);
    const orders = found.slice(0, limit);
    const last = orders.at(-1);
    if (found.length > limit && last) {
      const { pk, sk, gsi1pk, gsi1sk } = orderItem(last);
      return { orders, nextCursor: encodeCursor({ pk, sk, gsi1pk, gsi1sk }) };
    }
    // The read stopped at its bound with orders left to look at: the next page goes on from there.
    return exclusiveStartKey ? { orders, nextCursor: encodeCursor(exclusiveStartKey) } : { orders };
  }

  /** gsi1's key of an order of this organization, to start a page after it. */
  private async keyOfOrderIn(orderId: string, organizationId: OrganizationId): Promise<Record<string, unknown>> {
    const order = UUID.test(orderId) ? await this.get(orderId as OrderId) : undefined;
    if (!order || order.organizationId !== organizationId) {
      throw new ValidationFailed([
        {
          code: 'INVALID_CURSOR',
          message: 'starting_after must be the id of an order of the same organization',
          path: ['starting_after'],
        },
      ]);
    }
    const { pk, sk, gsi1pk, gsi1sk } = orderItem(order);
    return { pk, sk, gsi1pk, gsi1sk };
  }

  /**
   * Order ids starting with `prefix`: gsi1 read with a filter on the order's key, one
   * organization's partition at a time when given, else scanned (gsi1 holds orders,
   * approval requests and invoices, not the outbox items that outnumber them). The filter
   * names the order item's sort key too: an invoice shares its order's partition key, so
   * an invoiced order would otherwise count twice and look ambiguous. Stops once
   * `maxItemsRead` items were read, saying so.
   */
  async idsStartingWith(
    prefix: string,
    scope: { readonly organizationIds?: readonly OrganizationId[]; readonly maxItemsRead: number },
  ): Promise<OrderIdSearchResult> {
    const { pk: keyPrefix, sk: orderSortKey } = orderKeys.order(prefix);
    const partitions = scope.organizationIds?.map(orderKeys.ordersOfOrganization) ?? [undefined];
    const ids: OrderId[] = [];
    let itemsRead = 0;
    for (const partition of partitions) {
      let startKey: Record<string, unknown> | undefined;
      do {
        if (itemsRead >= scope.maxItemsRead) return { ids, complete: false, itemsRead };
        const read = {
          TableName: this.tables.orders,
          IndexName: 'gsi1',
          FilterExpression: 'begins_with(pk, :prefix) AND sk = :sk',
          ProjectionExpression: 'pk',
          Limit: scope.maxItemsRead - itemsRead,
          ExclusiveStartKey: startKey,
        };
        const page = await this.db.send(
          partition === undefined
            ? new ScanCommand({ ...read, ExpressionAttributeValues: { ':prefix': keyPrefix, ':sk': orderSortKey } })
            : new QueryCommand({
                ...read,
                KeyConditionExpression: 'gsi1pk = :pk',
                ExpressionAttributeValues: { ':pk': partition, ':prefix': keyPrefix, ':sk': orderSortKey },
              }),
        );
        itemsRead += page.ScannedCount ?? 0;
        for (const item of page.Items ?? []) ids.push(String(item.pk).slice('ORDER#'.length) as OrderId);
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    return { ids, complete: true, itemsRead };
  }

  private async hasMore(partition: string, range: CreatedRange, after: Record<string, unknown>): Promise<boolean> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tables.orders,
        IndexName: 'gsi1',
        KeyConditionExpression: `gsi1pk = :pk${range.condition}`,
        ExpressionAttributeValues: { ':pk': partition, ...range.values },
        ScanIndexForward: false,
        Limit: 1,
        ExclusiveStartKey: after,
        ProjectionExpression: 'pk',
      }),
    );
    return Items.length > 0;
  }
}

interface CreatedRange {
  /** Appended to the key condition: '' or ` AND gsi1sk …`. */
  readonly condition: string;
  readonly values: Record<string, string>;
}

/**
 * The creation range as a condition on gsi1's sort key (`<createdAt>#<id>`): an order
 * created at exactly `createdGte` sorts after it (in), one at exactly `createdLt` after
 * it too (out, since the bound is inclusive only of the bare instant).
 */
function createdRange(page: Pick<OrderPageRequest, 'createdGte' | 'createdLt'>): CreatedRange {
  const { createdGte: gte, createdLt: lt } = page;
  if (gte !== undefined && lt !== undefined)
    return { condition: ' AND gsi1sk BETWEEN :gte AND :lt', values: { ':gte': gte, ':lt': lt } };
  if (gte !== undefined) return { condition: ' AND gsi1sk >= :gte', values: { ':gte': gte } };
  if (lt !== undefined) return { condition: ' AND gsi1sk < :lt', values: { ':lt': lt } };
  return { condition: '', values: {} };
}

interface OrderFilter {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, string>;
}

/** The page's status, PO number and user as one filter on the stored order, or undefined when none is asked. */
function filterOf(page: Pick<OrderPageRequest, 'status' | 'poNumber' | 'internalUserId'>): OrderFilter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  if (page.status !== undefined) {
    parts.push('#order.#status = :status');
    names['#status'] = 'status';
    values[':status'] = page.status;
  }
  if (page.poNumber !== undefined) {
    parts.push('#order.poNumber = :poNumber');
    values[':poNumber'] = page.poNumber;
  }
  if (page.internalUserId !== undefined) {
    parts.push('#order.internalUserId = :internalUserId');
    values[':internalUserId'] = page.internalUserId;
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}

function decodeCursor(cursor: string, partition: string): Record<string, unknown> {
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
