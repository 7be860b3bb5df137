import type { Clock } from '../../domain/clock';
import { toOutboxRecord } from '../../domain/events/order-outbox';
import type { OrderEventMessage } from '../../domain/events/order-event-message';
import type { Cart } from '../../domain/orders/cart';
import { type MonthSpendCharge, type MonthSpendCredit, roomBefore } from '../../domain/spending/monthly-spend';
import type { Order } from '../../domain/orders/order';
import { OUTBOX_KEY_PREFIX } from '../../resources/resource-definitions';
import { cartKeys } from './cart-repository';
import type { TransactItem } from './transactions';

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
  /** Beside a shipped order until its invoice is recorded (`uninvoicedShipmentPut`). */
  uninvoiced: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'UNINVOICED' }),
};

/**
 * gsi1's partition of shipped orders awaiting their invoice: only their markers carry it,
 * so the invoice sweep reads exactly those (oldest shipment first), never the table.
 */
export const UNINVOICED_SHIPMENTS_PARTITION = 'UNINVOICED';

/**
 * The marker a shipment writes in its own transaction, removed in the transaction that
 * records the order's invoice: while it is there the order shipped and was not invoiced.
 */
export const uninvoicedShipmentPut = (table: string, orderId: string, shippedAt: string): TransactItem => ({
  Put: {
    TableName: table,
    Item: {
      ...orderKeys.uninvoiced(orderId),
      gsi1pk: UNINVOICED_SHIPMENTS_PARTITION,
      gsi1sk: `${shippedAt}#${orderId}`,
      orderId,
      shippedAt,
    },
  },
});

/**
 * The order's amount added to its user's month total, with the monthly limit that applied
 * (`null`: none), which a past month shows. Enforced, the addition is conditional on the
 * total staying within the limit: DynamoDB serializes the transactions on this one item,
 * so parallel orders can never pass the limit together.
 */
export const monthSpendUpdate = (table: string, charge: MonthSpendCharge): TransactItem => ({
  Update: {
    TableName: table,
    Key: orderKeys.monthSpend(charge.profileId, charge.month),
    UpdateExpression: 'ADD totalCents :amount SET monthlyLimitCents = :limit',
    ...(charge.enforced && charge.limitCents !== undefined
      ? {
          ConditionExpression: 'attribute_not_exists(totalCents) OR totalCents <= :room',
          ExpressionAttributeValues: {
            ':amount': charge.amountCents,
            ':limit': charge.limitCents,
            ':room': roomBefore(charge.amountCents, charge.limitCents),
          },
        }
      : { ExpressionAttributeValues: { ':amount': charge.amountCents, ':limit': charge.limitCents ?? null } }),
  },
});

/**
 * What a cancellation or refund gives back, taken off the month the order counted in, in
 * the change's transaction. Never conditional: a give-back is never refused.
 */
export const monthSpendGiveBack = (table: string, credit: MonthSpendCredit): TransactItem => ({
  Update: {
    TableName: table,
    Key: orderKeys.monthSpend(credit.profileId, credit.month),
    UpdateExpression: 'ADD totalCents :amount',
    ExpressionAttributeValues: { ':amount': -credit.amountCents },
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
export const consumedCartLines = (table: string, cart: Cart): TransactItem[] => [
  ...cart.lines.map((line): TransactItem => ({
    Delete: {
      TableName: table,
      Key: cartKeys.line(cart.profileId, line.productId),
      ConditionExpression: 'quantity = :quantity',
      ExpressionAttributeValues: { ':quantity': line.quantity },
    },
  })),
  // Whichever checkout takes the lines takes the resubmission's link with them.
  ...(cart.resubmits === undefined
    ? []
    : [
        {
          Delete: {
            TableName: table,
            Key: cartKeys.resubmits(cart.profileId),
            ConditionExpression: 'requestId = :requestId',
            ExpressionAttributeValues: { ':requestId': cart.resubmits },
          },
        } satisfies TransactItem,
      ]),
];
