import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../domain/clock';
import { ConcurrentModification, MonthlyLimitReached, ValidationFailed } from '../../domain/errors';
import type { OrderEventMessage } from '../../domain/events/order-event-message';
import type { Cart } from '../../domain/orders/cart';
import type { MonthCounter, MonthSpendCharge, MonthSpendCredit, SpendMonth } from '../../domain/spending/monthly-spend';
import type { Order, OrderId } from '../../domain/orders/order';
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
import {
  consumedCartLines,
  monthSpendGiveBack,
  monthSpendUpdate,
  orderItem,
  orderKeys,
  outboxPut,
  uninvoicedShipmentPut,
} from './dynamodb-order-items';
import { type CreatedRange, createdRange, type OrderFilter, filterOf, startWithin } from './dynamodb-order-page-query';
import { decodeCursor, encodeCursor } from './page-cursor';
import { failedConditions, type TransactItem, writeAllOrNothing } from './transactions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
      if (spend?.enforced && spend.limitCents !== undefined && failed?.includes(items.length - 1))
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

  async monthCounters(profileIds: readonly ProfileId[], month: SpendMonth): Promise<Map<ProfileId, MonthCounter>> {
    const counters = new Map<ProfileId, MonthCounter>();
    // BatchGetItem takes 100 keys a call; keys it leaves unprocessed are asked again.
    for (let start = 0; start < profileIds.length; start += 100) {
      let keys: Record<string, unknown>[] | undefined = profileIds
        .slice(start, start + 100)
        .map((id) => orderKeys.monthSpend(id, month));
      while (keys && keys.length > 0) {
        const read: BatchGetCommandOutput = await this.db.send(
          new BatchGetCommand({ RequestItems: { [this.tables.orders]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of read.Responses?.[this.tables.orders] ?? []) {
          const limit: unknown = item.monthlyLimitCents;
          counters.set(String(item.pk).slice('SPEND#'.length) as ProfileId, {
            spentCents: typeof item.totalCents === 'number' ? item.totalCents : 0,
            ...(typeof limit === 'number' || limit === null ? { limitCents: limit } : {}),
          });
        }
        keys = read.UnprocessedKeys?.[this.tables.orders]?.Keys;
      }
    }
    return counters;
  }

  async transition(input: {
    readonly order: Order;
    readonly expectedSequence: number;
    readonly event: OrderEventMessage;
    readonly credit?: MonthSpendCredit;
  }): Promise<void> {
    const { order, event } = input;
    await this.write([
      {
        Put: {
          TableName: this.tables.orders,
          Item: orderItem(order),
          ConditionExpression: '#sequence = :expected',
          ExpressionAttributeNames: { '#sequence': 'sequence' },
          ExpressionAttributeValues: { ':expected': input.expectedSequence },
        },
      },
      this.outboxPut(event),
      // Committed with the shipment, so the invoice sweep finds the order whatever happens to its event.
      ...(event.event === 'order.shipped' && order.shipment
        ? [uninvoicedShipmentPut(this.tables.orders, order.id, order.shipment.shippedAt)]
        : []),
      ...(input.credit ? [monthSpendGiveBack(this.tables.orders, input.credit)] : []),
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

  async listCreatedBetween(
    organizationId: OrganizationId,
    range: { readonly from: string; readonly to: string; readonly maxOrders: number },
  ): Promise<{ readonly orders: Order[]; readonly complete: boolean }> {
    const orders: Order[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      // gsi1sk is `createdAt#id`: '#' sorts before any digit, '~' after, so the range is exactly [from, to).
      const { Items = [], LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.tables.orders,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': orderKeys.ordersOfOrganization(organizationId),
            ':from': range.from,
            ':to': `${range.to}#`,
          },
          Limit: range.maxOrders + 1 - orders.length,
          ExclusiveStartKey: startKey,
        }),
      );
      orders.push(...Items.map((item) => item.order as Order));
      startKey = LastEvaluatedKey;
    } while (startKey && orders.length <= range.maxOrders);
    return { orders: orders.slice(0, range.maxOrders), complete: orders.length <= range.maxOrders };
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
    const start = startWithin(range, startKey);
    if (start === 'past-the-range') return { orders: [] };
    const filter = filterOf(page);
    if (filter) return this.listFiltered(partition, range, filter, limit, start);
    const { Items = [], LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tables.orders,
        IndexName: 'gsi1',
        KeyConditionExpression: `gsi1pk = :pk${range.condition}`,
        ExpressionAttributeValues: { ':pk': partition, ...range.values },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: start,
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
