/**
 * Pending orders for the "move order" workload. One order per organization is placed
 * through the real sandbox use case (in process); the rest of the pool are copies of
 * those items as stored, with new ids, 25 to a BatchWriteItem: thousands of orders in
 * seconds instead of minutes. A confirm reads only
 * the order's item, so a copy is as good as an order placed one by one (its order.created
 * outbox item is all it lacks). The service and the baseline each get a pool of their
 * own, so every confirm finds its order still pending.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { orderKeys } from '../functions/adapters/dynamodb/dynamodb-order-items';
import type { Order } from '../functions/domain/orders/order';
import { parseSandboxOrderRequest } from '../functions/domain/orders/sandbox-order-request';
import { tableName } from '../functions/resources/resource-definitions';
import type { BenchOrganization, BenchPartner, BenchStack } from './bench-stack';
import { inParallel } from './util';
import type { PendingOrder } from './workloads';

const ITEMS_PER_BATCH_WRITE = 25;

/** One order per organization, through the sandbox use case: the originals the pool copies. */
export async function placeOriginals(
  bench: BenchStack,
  organizations: readonly BenchOrganization[],
  productIds: readonly [string, string],
) {
  const { sandboxOrders } = bench.stack.deps.functions.ordersApi;
  return inParallel(organizations, 8, async (organization) => {
    const request = parseSandboxOrderRequest({
      profile_id: organization.profileId,
      items: [
        { product_id: productIds[0], quantity: 2 },
        { product_id: productIds[1], quantity: 1 },
      ],
    });
    const placed = await sandboxOrders.place(organization.partner.partnerId, request);
    // Bench users have no order limit, so every placement is an order.
    if (placed.outcome !== 'placed')
      throw new Error(`bench organization ${organization.profileId}: the placement asked for approval`);
    return { partner: organization.partner, order: placed.order };
  });
}

/** `count` pending orders, copies of the originals' stored items in turn. */
export async function pendingOrderPool(
  bench: BenchStack,
  originals: readonly { partner: BenchPartner; order: Order }[],
  count: number,
): Promise<PendingOrder[]> {
  const { db } = bench.stack.deps.aws;
  const table = tableName(bench.resourcePrefix, 'orders');
  const stored = await inParallel(originals, 8, async ({ order }) => {
    const { Item } = await db.send(
      new GetCommand({ TableName: table, Key: orderKeys.order(order.id), ConsistentRead: true }),
    );
    if (!Item) throw new Error(`order ${order.id} not stored`);
    return Item;
  });
  // A copy is its original with the original's id replaced wherever it occurs (keys, index keys, the order).
  const stringified = stored.map((item) => JSON.stringify(item));
  const pool = Array.from({ length: count }, (_, i) => {
    const original = originals[i % originals.length] as (typeof originals)[number];
    const orderId = randomUUID();
    const item = JSON.parse(
      (stringified[i % stored.length] as string).replaceAll(original.order.id, orderId),
    ) as Record<string, unknown>;
    return { partner: original.partner, orderId, item };
  });
  const batches = Array.from({ length: Math.ceil(count / ITEMS_PER_BATCH_WRITE) }, (_, i) =>
    pool.slice(i * ITEMS_PER_BATCH_WRITE, (i + 1) * ITEMS_PER_BATCH_WRITE),
  );
  await inParallel(batches, 4, async (batch) => {
    let pending = batch.map(({ item }) => ({ PutRequest: { Item: item } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  });
  return pool.map(({ partner, orderId }) => ({ partner, orderId }));
}
