/**
 * Pending orders for the "move order" workload. One order per organization is placed
 * through the real sandbox use case (in process); the rest of the pool are copies of
 * those with new ids, written as the order repository writes an order's item, 25 to a
 * BatchWriteItem: thousands of orders in seconds instead of minutes. A confirm reads only
 * the order's item, so a copy is as good as an order placed one by one (its order.created
 * outbox item is all it lacks). The service and the baseline each get a pool of their
 * own, so every confirm finds its order still pending.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderId } from '../functions/domain/orders/order';
import { parseSandboxOrderRequest } from '../functions/domain/orders/sandbox-order-request';
import { tableName } from '../functions/resources/resource-definitions';
import { orderItem } from './bare-calls';
import type { BenchOrganization, BenchPartner, BenchStack } from './bench-stack';
import { inParallel } from './util';
import type { PendingOrder } from './workloads';

const ITEMS_PER_BATCH_WRITE = 25;

/** One order per organization, through the sandbox use case: the originals the pool copies. */
export async function placeOriginals(bench: BenchStack, organizations: readonly BenchOrganization[], productIds: readonly [string, string]) {
  const { sandboxOrders } = bench.stack.deps.functions.ordersApi;
  return inParallel(organizations, 8, async (organization) => {
    const request = parseSandboxOrderRequest({
      profile_id: organization.profileId,
      items: [
        { product_id: productIds[0], quantity: 2 },
        { product_id: productIds[1], quantity: 1 },
      ],
    });
    return { partner: organization.partner, order: await sandboxOrders.place(organization.partner.partnerId, request) };
  });
}

/** `count` pending orders, copies of the originals in turn. */
export async function pendingOrderPool(
  bench: BenchStack,
  originals: readonly { partner: BenchPartner; order: Order }[],
  count: number,
): Promise<PendingOrder[]> {
  const table = tableName(bench.resourcePrefix, 'orders');
  const pool = Array.from({ length: count }, (_, i) => {
    const original = originals[i % originals.length] as (typeof originals)[number];
    return { partner: original.partner, order: { ...original.order, id: randomUUID() as OrderId } };
  });
  const batches = Array.from({ length: Math.ceil(count / ITEMS_PER_BATCH_WRITE) }, (_, i) =>
    pool.slice(i * ITEMS_PER_BATCH_WRITE, (i + 1) * ITEMS_PER_BATCH_WRITE),
  );
  await inParallel(batches, 4, async (batch) => {
    let pending = batch.map(({ order }) => ({ PutRequest: { Item: orderItem(order) } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await bench.stack.deps.aws.db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  });
  return pool.map(({ partner, order }) => ({ partner, orderId: order.id }));
}
