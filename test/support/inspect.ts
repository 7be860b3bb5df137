import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_STRIPE_SECRET_KEY } from '../../functions/resources/function-environment';
import Stripe from 'stripe';
import { inject } from 'vitest';
import { type TableName, tableName } from '../../functions/resources/resource-definitions';
import type { LocalStack } from '../../lib/local-runtime/local-stack';

/** Every item of one of the stack's tables (tests own their tables, so this is small). */
export async function scanTable(stack: LocalStack, table: TableName): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const page = await stack.deps.aws.db.send(
      new ScanCommand({
        TableName: tableName(stack.config.RESOURCE_PREFIX, table),
        ExclusiveStartKey,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** A Stripe SDK client on the stand-in, to look at what the service created there. */
export function stripeStandIn(): Stripe {
  const url = new URL(inject('standIns').stripeApiBase);
  return new Stripe(LOCAL_STRIPE_SECRET_KEY, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

/** The Stripe customers whose metadata names this partner's organization. */
export async function stripeCustomersFor(partnerId: string, internalOrgId: string): Promise<Stripe.Customer[]> {
  const found: Stripe.Customer[] = [];
  for await (const customer of stripeStandIn().customers.list({ limit: 100 })) {
    if (customer.metadata.partnerId === partnerId && customer.metadata.internalOrgId === internalOrgId)
      found.push(customer);
  }
  return found;
}
